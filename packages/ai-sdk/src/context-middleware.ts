import {
  InvalidArgumentError,
  InvalidProviderOutputError,
  type ContextProvider,
  type LanguageModel as OllmLanguageModel,
  type Logger,
  type MessageShapeRuleSet,
  type TokenCounter,
} from '@ollm/core';
import fold from '@ollm/plugin-fold';
import { ContextOverflowError, IncrementalCompactor, ollmHome, type IncrementalFit } from '@ollm/runtime';
import type { LanguageModel, LanguageModelMiddleware, ToolSet } from 'ai';
import { messagesToPrompt } from './messages-to-prompt.js';
import { ollmModelClient } from './ollm-model-client.js';
import { promptProblems } from './prompt-problems.js';
import { promptToMessages, type PromptConversion } from './prompt-to-messages.js';
import { PromptTooLargeError } from './prompt-too-large-error.js';
import type { CallOptions } from './prompt-types.js';
import { createRecallTool, RECALL_WINDOW_SHARE } from './recall-tool.js';

/** Share of the window kept for the reply when a call sets no `maxOutputTokens` and no `replyReserve` is given. */
export const DEFAULT_REPLY_SHARE = 0.15;

export interface ContextMiddlewareOptions {
  /** The window the wrapped model runs with, in tokens (the server's `num_ctx`, `max_model_len`, the API's context length). */
  readonly contextSize: number;
  /** The compaction stages, in order (default: fold, ollm's rule stage: no model call, names kept, everything removed saved). */
  readonly stages?: readonly ContextProvider[];
  /** Where removed content is saved (`<logdir>/removed/<sha256>.txt`, read by the recall tool and `ollm recover`); default `$OLLM_HOME` or `~/.ollm`. */
  readonly logdir?: string;
  /** Tokens kept for the reply when a call sets no `maxOutputTokens`; default 15% of `contextSize`. */
  readonly replyReserve?: number;
  /** The message shape the target accepts (core's rule sets); default `openai`: results right after their call, nothing empty. */
  readonly shape?: MessageShapeRuleSet;
  /**
   * `true` (or options): `tools` holds the recall tool, for `generateText({ tools })`, so the model
   * can take back what was removed. Each call returns at most `maxTokens` (default a quarter of
   * `contextSize`), in pages.
   */
  readonly recall?: boolean | { readonly maxTokens?: number };
  /**
   * For model stages (goal-aware, summarize): an AI SDK model (pass it unwrapped), or an ollm model
   * client (`@ollm/model-openai`, `@ollm/model-ollama`). Without one, model stages are skipped.
   */
  readonly model?: LanguageModel | OllmLanguageModel;
  /** Called after each call whose prompt did not fit as it was: what was reused and compacted. */
  readonly onCompaction?: (event: CompactionEvent) => void;
  /** Warnings of stages that failed (the call goes on without them); default silent. */
  readonly logger?: Logger;
}

/**
 * What the middleware did to one call's prompt: the runtime's report of the fit (`IncrementalFit`:
 * tokens before and after, messages an earlier compaction stood for, tokens processed, the new
 * span, the stages, the sha256 of removed pieces under `<logdir>/removed/`), and the call's own.
 */
export interface CompactionEvent extends Pick<
  IncrementalFit,
  'tokensBefore' | 'tokensAfter' | 'reusedMessages' | 'processedTokens' | 'newSpanTokens' | 'stages' | 'references'
> {
  /** `reused`: an earlier step's compaction stood in for the prefix, nothing new compacted; `compacted`: the new span was compacted now. */
  readonly action: 'reused' | 'compacted';
  /** The AI SDK call: `generate` (generateText) or `stream` (streamText). */
  readonly type: 'generate' | 'stream';
  /** Tokens the prompt may hold: contextSize less the reply reserve and the tool definitions. */
  readonly budget: number;
  /** Prompt messages before and after (`reusedMessages` counts ollm messages: one per tool result). */
  readonly messagesBefore: number;
  readonly messagesAfter: number;
}

/** The middleware for `wrapLanguageModel`, with the tools it offers (the recall tool when asked for). */
export interface ContextMiddleware extends LanguageModelMiddleware {
  /** Add to `generateText({ tools: { ...yours, ...context.tools } })`; empty unless `recall` is set. */
  readonly tools: ToolSet;
  /** The token counter the budget is counted with (o200k). */
  readonly tokens: TokenCounter;
}

/**
 * A language model middleware that keeps every call inside the model's window:
 * `wrapLanguageModel({ model, middleware: contextMiddleware({ contextSize: 8192 }) })`. Each call's
 * prompt is read as ollm messages and, when it is over `contextSize` less the reply
 * (`maxOutputTokens`, else `replyReserve`) and the tool definitions, compacted by the stages and
 * turned back into a prompt: messages and parts left as they were are the same objects, system
 * messages and the last user message are never edited, every tool result stays after its call.
 * One compactor serves every call through this middleware, so each step of an agent run reuses the
 * compaction the steps before it made and compacts only its new span.
 */
export function contextMiddleware(options: ContextMiddlewareOptions): ContextMiddleware {
  const { contextSize } = options;
  if (!Number.isInteger(contextSize) || contextSize < 1) {
    throw new InvalidArgumentError({ argument: 'contextSize', message: `contextSize must be a whole number of tokens, 1 or more; got ${String(contextSize)}` });
  }
  const defaultReserve = options.replyReserve ?? Math.ceil(contextSize * DEFAULT_REPLY_SHARE);
  if (!Number.isInteger(defaultReserve) || defaultReserve < 0 || defaultReserve >= contextSize) {
    throw new InvalidArgumentError({
      argument: 'replyReserve',
      message: `replyReserve must be a whole number of tokens from 0 to less than contextSize (${contextSize}); got ${String(options.replyReserve)}`,
    });
  }
  const logdir = options.logdir ?? ollmHome();
  const stages = options.stages ?? [fold];
  const compactor = new IncrementalCompactor({
    stages,
    logdir,
    shape: options.shape ?? 'openai',
    ...(options.model !== undefined ? { model: isOllmModel(options.model) ? options.model : ollmModelClient(options.model) } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const tokens = compactor.tokens;
  const recall = options.recall === true ? {} : options.recall === false ? undefined : options.recall;
  const tools: ToolSet =
    recall === undefined
      ? {}
      : { recall: createRecallTool({ logdir, tokens, maxTokens: recall.maxTokens ?? Math.max(1, Math.floor(contextSize * RECALL_WINDOW_SHARE)) }) };

  return {
    specificationVersion: 'v3',
    tools,
    tokens,
    async transformParams({ params, type }) {
      const replyReserve = params.maxOutputTokens ?? defaultReserve;
      const toolTokens = requestExtraTokens(params, tokens);
      const budget = contextSize - replyReserve - toolTokens;
      const conversion = promptToMessages(params.prompt);
      const window = { contextSize, replyReserve, toolTokens };
      if (budget < 1) throw tooLarge(conversion, tokens.countMessages(conversion.messages), budget, window, tokens);
      let fit: IncrementalFit;
      try {
        fit = await compactor.fit(
          conversion.messages,
          { contextSize, replyReserve, otherTokens: toolTokens },
          { sourceKeys: conversion.sourceKeys, ...(params.abortSignal ? { abortSignal: params.abortSignal } : {}) },
        );
      } catch (error) {
        if (ContextOverflowError.isInstance(error)) throw tooLarge(conversion, error.requestTokens, budget, window, tokens);
        throw error;
      }
      if (fit.action === 'fits') return params;
      const prompt = messagesToPrompt(fit.messages, conversion);
      const problems = promptProblems(prompt);
      if (problems.length > 0 && problems.length > promptProblems(params.prompt).length) {
        throw new InvalidProviderOutputError({ provider: stages.map((stage) => stage.name).join(','), rule: 'ai-sdk-prompt', detail: problems[0]! });
      }
      options.onCompaction?.({
        action: fit.action,
        type,
        budget,
        tokensBefore: fit.tokensBefore,
        tokensAfter: fit.tokensAfter,
        messagesBefore: params.prompt.length,
        messagesAfter: prompt.length,
        reusedMessages: fit.reusedMessages,
        processedTokens: fit.processedTokens,
        newSpanTokens: fit.newSpanTokens,
        stages: fit.stages,
        references: fit.references,
      });
      return { ...params, prompt };
    },
  };
}

function isOllmModel(model: LanguageModel | OllmLanguageModel): model is OllmLanguageModel {
  return typeof model === 'object' && typeof (model as Partial<OllmLanguageModel>).complete === 'function';
}

/** Tokens a call sends besides its prompt: the tool definitions and a JSON response schema. */
function requestExtraTokens(params: CallOptions, tokens: TokenCounter): number {
  let total = 0;
  if (params.tools !== undefined && params.tools.length > 0) total += tokens.countText(JSON.stringify(params.tools));
  if (params.responseFormat?.type === 'json' && params.responseFormat.schema !== undefined)
    total += tokens.countText(JSON.stringify(params.responseFormat.schema));
  return total;
}

function tooLarge(
  conversion: PromptConversion,
  requestTokens: number,
  budget: number,
  window: { contextSize: number; replyReserve: number; toolTokens: number },
  tokens: TokenCounter,
): PromptTooLargeError {
  const lastUser = conversion.prompt.findLastIndex((message) => message.role === 'user');
  const lastUserTokens = lastUser === -1 ? 0 : tokens.countMessages(conversion.ids[lastUser]!.map((id) => conversion.origins.get(id)!.message));
  return new PromptTooLargeError({
    requestTokens,
    requestLimit: budget,
    ...window,
    ...(lastUser !== -1 && lastUserTokens > budget ? { messageIndex: lastUser, messageTokens: lastUserTokens } : {}),
  });
}
