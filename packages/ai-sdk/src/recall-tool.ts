import { InvalidArgumentError, type TokenCounter } from '@ollm/core';
import { DEFAULT_RECALL_WINDOW_SHARE, RECALL_TOOL, recallOutput, recallRemoved, type RecallInput, type RecallResult } from '@ollm/runtime';
import { jsonSchema, tool, type JSONSchema7, type Tool } from 'ai';

/** Share of the window one recall page may take, so the step that reads it still fits. */
export const RECALL_WINDOW_SHARE = DEFAULT_RECALL_WINDOW_SHARE;

export interface RecallToolOptions {
  /** Where compaction saved what it removed (the middleware's `logdir`). */
  readonly logdir: string;
  /** Tokens one call returns at most; longer content comes in pages (`offset`). */
  readonly maxTokens: number;
  readonly tokens: TokenCounter;
}

/**
 * The recall tool as an AI SDK tool (core's `RECALL_TOOL`): the model passes the reference a
 * placeholder shows (`[ollm fold 3f2a9c1e4b7d]`) and gets the removed text back byte for byte, at
 * most `maxTokens` of it a call, with a line saying where the next page starts. A bad or unknown
 * reference throws a message written for the model, which the AI SDK hands it as the tool's error.
 */
export function createRecallTool(options: RecallToolOptions): Tool<RecallInput, string> {
  if (!Number.isInteger(options.maxTokens) || options.maxTokens < 1) {
    throw new InvalidArgumentError({
      argument: 'recall.maxTokens',
      message: `recall.maxTokens must be a whole number of tokens, 1 or more; got ${String(options.maxTokens)}`,
    });
  }
  return tool<RecallInput, string>({
    description: RECALL_TOOL.description,
    inputSchema: jsonSchema<RecallInput>(RECALL_TOOL.inputSchema as unknown as JSONSchema7),
    execute: async (input) => recallOutput(boundedRecall(input, options)),
  });
}

/** One page of the removed content, within `maxTokens` (the runtime's `recallRemoved` pages it). */
export function boundedRecall(input: RecallInput, options: RecallToolOptions): RecallResult {
  return recallRemoved(input, { logdir: options.logdir, maxTokens: options.maxTokens, tokens: options.tokens });
}
