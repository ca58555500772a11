import { SystemMessage } from '@langchain/core/messages';
import {
  InvalidArgumentError,
  isContextProvider,
  type ContextProvider,
  type LanguageModel,
  type Logger,
  type MessageShapeRuleSet,
  type ProviderOptions,
} from '@ollm/core';
import fold from '@ollm/plugin-fold';
import { ContextOverflowError, IncrementalCompactor, ollmHome, type IncrementalFit } from '@ollm/runtime';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { MessageBridge } from './message-bridge.js';
import { createRecallTool, RECALL_WINDOW_SHARE } from './recall-tool.js';
import { resolveReplyReserve } from './reply-reserve.js';
import { RequestTooLargeError } from './request-too-large-error.js';
import { ToolDefinitionTokens } from './tool-definition-tokens.js';

/** The middleware's name, as LangChain reports it (errors from it are `MiddlewareError`s naming it). */
export const CONTEXT_MIDDLEWARE_NAME = 'OllmContextMiddleware';

export interface RecallSettings {
  /** The most one recall returns, in tokens; longer content comes in pages (`offset`). Default: a quarter of `contextSize`. */
  readonly maxTokens?: number;
}

/**
 * What the middleware did to one model call whose messages did not fit as they were: the runtime's
 * report of the fit (`IncrementalFit`: tokens before and after, messages an earlier compaction stood
 * for, tokens processed, the new span, the stages, the sha256 of removed pieces under
 * `<logdir>/removed/`), and the call's own.
 */
export interface CompactionEvent extends Pick<
  IncrementalFit,
  'tokensBefore' | 'tokensAfter' | 'reusedMessages' | 'processedTokens' | 'newSpanTokens' | 'stages' | 'references'
> {
  /** `reused`: an earlier step's compaction stood in for the prefix, nothing new compacted; `compacted`: the new span was compacted now. */
  readonly action: 'reused' | 'compacted';
  /** Tokens the messages may hold: contextSize less the reply reserve and the tool definitions. */
  readonly budget: number;
  /** LangChain messages the model would have been sent (the system message included), and was sent. */
  readonly messagesBefore: number;
  readonly messagesAfter: number;
}

export interface ContextMiddlewareOptions {
  /** The model's context window, in tokens: no request the middleware lets through is larger. */
  readonly contextSize: number;
  /** The compaction stages (the pipeline), in order; each runs only while the messages are over the target. Default: `[fold]`. */
  readonly stages?: readonly ContextProvider[];
  /** Where removed content is saved (`<logdir>/removed/<sha256>.txt`, read by `ollm recover` and the recall tool). Default: `$OLLM_HOME` or `~/.ollm`. */
  readonly logdir?: string;
  /** Tokens kept for the reply. Default: the model's `maxTokens` (`maxOutputTokens`, `numPredict`), else 15% of the window. */
  readonly replyReserve?: number;
  /** The message-shape rules the output keeps: `openai` (default; tool results right after their call, nothing empty) or `strict` (Anthropic, chat templates). */
  readonly shape?: MessageShapeRuleSet;
  /** Gives the model the `recall` tool, to take back what compaction removed. Default off. */
  readonly recall?: boolean | RecallSettings;
  /** An ollm model client, for model stages (goal-aware, summarize); without one they are skipped. */
  readonly model?: LanguageModel;
  readonly providerOptions?: ProviderOptions;
  readonly logger?: Logger;
  /** Called after each model call whose messages did not fit as they were: what was reused and compacted. */
  readonly onCompaction?: (event: CompactionEvent) => void;
}

function invalid(argument: string, message: string): InvalidArgumentError {
  return new InvalidArgumentError({ argument, message: `contextMiddleware: ${message}` });
}

function isPositiveInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value > 0;
}

function recallMaxTokens(options: ContextMiddlewareOptions): number | undefined {
  if (options.recall === undefined || options.recall === false) return undefined;
  const configured = options.recall === true ? undefined : options.recall.maxTokens;
  if (configured !== undefined && !isPositiveInteger(configured))
    throw invalid('recall.maxTokens', `recall.maxTokens must be a whole number of tokens, 1 or more; got ${String(configured)}.`);
  return configured ?? Math.max(1, Math.floor(options.contextSize * RECALL_WINDOW_SHARE));
}

/**
 * ollm as a LangChain.js v1 agent middleware: before every model call of a `createAgent` agent,
 * the messages the model is about to be sent are fitted to `contextSize` less the reply reserve
 * and the tool definitions, with ollm's incremental compactor (only the span new since the last
 * compaction is compacted; a step that still fits after one reuses it at no cost). The agent's
 * state keeps the full history: only what the model is sent changes (`wrapModelCall`). No tool
 * result loses its call, no call its result; the task (the first human message), the latest
 * human message and the system prompt go as they are. What is removed is saved for `ollm
 * recover` and, with `recall`, for the model itself.
 *
 * A request that cannot fit (the pinned messages and tools alone are over the window) fails with
 * a `RequestTooLargeError` (a `ContextOverflowError`; the `cause` of LangChain's
 * `MiddlewareError`), and nothing is sent.
 *
 * ```ts
 * createAgent({ model, tools, middleware: [contextMiddleware({ contextSize: 4096 })] });
 * ```
 */
export function contextMiddleware(options: ContextMiddlewareOptions): AgentMiddleware {
  if (options === null || typeof options !== 'object') throw invalid('options', 'give the options, at least { contextSize }.');
  const { contextSize } = options;
  if (!isPositiveInteger(contextSize))
    throw invalid('contextSize', `contextSize must be the model's window in tokens, a whole number above 0; got ${String(contextSize)}.`);
  if (options.replyReserve !== undefined) resolveReplyReserve(contextSize, options.replyReserve, undefined);
  const stages = options.stages ?? [fold];
  if (!Array.isArray(stages) || stages.length === 0 || !stages.every((stage) => isContextProvider(stage))) {
    throw invalid('stages', 'stages must be a non-empty array of ollm context providers (e.g. [fold] from @ollm/plugin-fold).');
  }
  if (options.logdir !== undefined && (typeof options.logdir !== 'string' || options.logdir.length === 0))
    throw invalid('logdir', 'logdir must be a folder path.');
  const maxTokens = recallMaxTokens(options);
  const logdir = options.logdir ?? ollmHome();
  const compactor = new IncrementalCompactor({
    stages,
    logdir,
    shape: options.shape ?? 'openai',
    ...(options.model ? { model: options.model } : {}),
    ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const bridge = new MessageBridge();
  const toolTokens = new ToolDefinitionTokens(compactor.tokens);
  const tools = maxTokens === undefined ? [] : [createRecallTool({ logdir, maxTokens, tokens: compactor.tokens })];

  return createMiddleware({
    name: CONTEXT_MIDDLEWARE_NAME,
    ...(tools.length > 0 ? { tools } : {}),
    wrapModelCall: async (request, handler) => {
      // The agent sends its system message first when it has text (createAgent's AgentNode does).
      const system = request.systemMessage && request.systemMessage.text !== '' ? request.systemMessage : undefined;
      const sources = system ? [system, ...request.messages] : request.messages;
      const converted = bridge.toOllm(sources);
      const replyReserve = resolveReplyReserve(contextSize, options.replyReserve, request.model);
      const otherTokens = toolTokens.count(request.tools);
      const budget = contextSize - replyReserve - otherTokens;
      const tooLarge = (requestTokens: number) => new RequestTooLargeError({ requestTokens, contextSize, replyReserve, toolTokens: otherTokens });
      if (budget < 1) throw tooLarge(compactor.tokens.countMessages(converted.messages));
      const signal = request.runtime?.signal;
      let fit: IncrementalFit;
      try {
        fit = await compactor.fit(
          converted.messages,
          { contextSize, replyReserve, otherTokens },
          { sourceKeys: converted.keys, ...(signal ? { abortSignal: signal } : {}) },
        );
      } catch (error) {
        if (ContextOverflowError.isInstance(error)) throw tooLarge(error.requestTokens);
        throw error;
      }
      if (fit.action === 'fits') return handler(request);
      const returned = bridge.fromOllm(fit.messages, converted);
      options.onCompaction?.({
        action: fit.action,
        budget,
        tokensBefore: fit.tokensBefore,
        tokensAfter: fit.tokensAfter,
        messagesBefore: sources.length,
        messagesAfter: returned.length,
        reusedMessages: fit.reusedMessages,
        processedTokens: fit.processedTokens,
        newSpanTokens: fit.newSpanTokens,
        stages: fit.stages,
        references: fit.references,
      });
      if (!system) return handler({ ...request, messages: returned.map((entry) => entry.message) });
      const [first, ...rest] = returned;
      const keptSystem = first?.index === 0 && SystemMessage.isInstance(first.message) ? first.message : undefined;
      return handler({
        ...request,
        // The same object when no stage changed it, as no bundled stage does.
        systemMessage: keptSystem ?? new SystemMessage(''),
        messages: (keptSystem ? rest : returned).map((entry) => entry.message),
      });
    },
  });
}
