import { tool } from '@langchain/core/tools';
import type { TokenCounter } from '@ollm/core';
import { DEFAULT_RECALL_WINDOW_SHARE, RECALL_TOOL, recallOutput, recallRemoved, type RecallInput, type RecallResult } from '@ollm/runtime';
import { z } from 'zod';

/** Share of the window one recall page may take by default, so the step that reads it still fits. */
export const RECALL_WINDOW_SHARE = DEFAULT_RECALL_WINDOW_SHARE;

export interface RecallToolOptions {
  /** Where compaction saved what it removed (the middleware's `logdir`). */
  readonly logdir: string;
  /** Tokens one call returns at most; longer content comes in pages (the model passes `offset`). */
  readonly maxTokens: number;
  readonly tokens: TokenCounter;
}

function describe(property: string): string {
  const schema = RECALL_TOOL.inputSchema.properties[property] as { description?: unknown } | undefined;
  return typeof schema?.description === 'string' ? schema.description : property;
}

/** One page of the removed content, within `maxTokens` (the runtime's `recallRemoved` pages it). */
export function boundedRecall(input: RecallInput, options: RecallToolOptions): RecallResult {
  return recallRemoved(input, { logdir: options.logdir, maxTokens: options.maxTokens, tokens: options.tokens });
}

/**
 * The recall tool (the runtime's `RECALL_TOOL`) as a LangChain tool: the model gives the
 * reference a placeholder shows (`[ollm fold 3f2a9c1e4b7d]`) and gets the removed content back
 * byte for byte, at most `maxTokens` of it a call, with a line saying where the next page starts.
 * A bad or unknown reference throws a message written for the model, which the agent's ToolNode
 * hands it as the tool's result (`status: 'error'`).
 */
export function createRecallTool(options: RecallToolOptions) {
  return tool(async (input: { reference: string; offset?: number | undefined }) => recallOutput(boundedRecall(input as RecallInput, options)), {
    name: RECALL_TOOL.name,
    description: RECALL_TOOL.description,
    schema: z.object({
      reference: z.string().describe(describe('reference')),
      offset: z.number().int().min(0).optional().describe(describe('offset')),
    }),
  });
}
