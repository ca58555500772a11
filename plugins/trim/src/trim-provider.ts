import {
  buildCompactionResult,
  createTokenizer,
  type TokenCounting,
  MESSAGE_OVERHEAD_TOKENS,
  type CompactionResult,
  type CompressionConfig,
  type ContextProviderV2,
  type Message,
  outputFromResult,
  type ProviderContext,
  v1Arguments,
  TokenCounter,
} from '@ollm/core';
import { withContentCache } from './cached-token-counting.js';
import { compressAssistantMessages } from './compress-assistant-messages.js';
import { foldToolCallInputs } from './fold-tool-call-inputs.js';
import { stripReasoning } from './strip-reasoning.js';
import { resolveTrimOptions, type ResolvedTrimOptions, type TrimOptions } from './trim-options.js';
import { TrimWorkspace } from './trim-workspace.js';
import { indexToolCalls, truncateToolResults } from './truncate-tool-results.js';

/** Below this share of the input saved, trim says so and points to `summarize` (gptme's rule). */
export const LOW_SAVING_SHARE = 0.1;

/** Head and tail lines kept by placeholders written in the additional passes. */
export const ADDITIONAL_PASS_PREVIEW_LINES = 1;

/**
 * The thresholds of the additional passes: halve the tool-result threshold after each pass,
 * from half of `maxToolResultTokens` down to (and including) `minToolResultTokens`.
 */
export function additionalPassThresholds(options: ResolvedTrimOptions): number[] {
  if (!options.additionalPasses) return [];
  const thresholds: number[] = [];
  let threshold = Math.floor(options.maxToolResultTokens / 2);
  while (threshold > options.minToolResultTokens) {
    thresholds.push(threshold);
    threshold = Math.floor(threshold / 2);
  }
  if (options.minToolResultTokens < options.maxToolResultTokens) thresholds.push(options.minToolResultTokens);
  return thresholds;
}

/**
 * The tool-call threshold of additional pass `pass` (0 first): `maxToolCallTokens` halved once
 * per pass, not below `minToolCallTokens` (nor above `maxToolCallTokens`).
 */
export function additionalPassToolCallThreshold(options: ResolvedTrimOptions, pass: number): number {
  const halved = Math.floor(options.maxToolCallTokens / 2 ** (pass + 1));
  return Math.min(options.maxToolCallTokens, Math.max(options.minToolCallTokens, halved));
}

/** Tokens trim can never remove (system, user and pinned messages), and those left in tool calls. */
function untouchableTokens(workspace: TrimWorkspace): { messages: number; toolCalls: number } {
  let messages = 0;
  let toolCalls = 0;
  workspace.messages.forEach((message, index) => {
    if (workspace.isProtected(index)) {
      messages += workspace.tokens.countMessage(message);
      return;
    }
    if (!message.parts.some((part) => part.type === 'tool-call')) return;
    // The message's count is cached; subtracting its other parts avoids tokenising the (large) calls again.
    let others = MESSAGE_OVERHEAD_TOKENS + (message.name ? workspace.tokens.countText(message.name) : 0);
    for (const part of message.parts) if (part.type !== 'tool-call') others += workspace.tokens.countPartText(part);
    toolCalls += workspace.tokens.countMessage(message) - others;
  });
  return { messages, toolCalls };
}

function describeLimitations(workspace: TrimWorkspace, tokensBefore: number, options: ResolvedTrimOptions): string[] {
  const limitations: string[] = [];
  if (workspace.removed.length > 0 && workspace.logdir === undefined) {
    limitations.push(
      `removed content is not recoverable: no logdir was given, so only the sha256 of each of the ${workspace.removed.length} removed pieces is recorded`,
    );
  }
  const after = workspace.totalTokens;
  if (workspace.overLimit) {
    const floor = untouchableTokens(workspace);
    const passes = additionalPassThresholds(options);
    const smallestOutput = passes.at(-1) ?? options.maxToolResultTokens;
    const smallestCall = passes.length > 0 ? additionalPassToolCallThreshold(options, passes.length - 1) : options.maxToolCallTokens;
    const recent = options.reasoningStripAgeThreshold;
    limitations.push(
      `still over the limit: ${after} tokens for a limit of ${workspace.limit}; ${floor.messages} tokens are in system, user and pinned messages, which trim never edits, and ${floor.toolCalls} in tool calls; ` +
        `tool outputs of ${smallestOutput} tokens or fewer, tool calls of ${smallestCall} tokens or fewer, reasoning, assistant text and tool calls in the last ${recent} messages, and assistant text of ${options.extractiveMinTokens} tokens or fewer are kept as they are; use the summarize provider (/compact summarize) to go further`,
    );
  }
  const saved = tokensBefore - after;
  // Stopping early because the target was reached is success, not a low saving.
  if ((workspace.limit === undefined || workspace.overLimit) && saved < LOW_SAVING_SHARE * tokensBefore) {
    const share = tokensBefore === 0 ? 0 : (100 * saved) / tokensBefore;
    limitations.push(
      `trim saved only ${share.toFixed(1)}% of ${tokensBefore} tokens (under 10%); the summarize provider (/compact summarize) can shrink this conversation further`,
    );
  }
  return limitations;
}

/** The host's counter (else an o200k one), its texts counted once per content across calls. */
function countWith(context: ProviderContext | undefined): TokenCounting {
  return withContentCache(context?.tokens ?? new TokenCounter(createTokenizer('o200k_base')));
}

/** gptme's rule-based trim as a provider; `options` override the config's thresholds (see README). */
export function createTrimProvider(options: TrimOptions = {}): ContextProviderV2 {
  return {
    specificationVersion: 'v2',
    usesModel: false,
    name: 'trim',
    description:
      'Rule-based, no model: strips old reasoning, truncates the largest tool outputs and folds long old tool-call inputs (saved for recovery), compresses long old assistant messages extractively',

    async compress(call) {
      const { messages } = call;
      const { config, context } = v1Arguments(call);
      const startedAt = performance.now();
      const resolved = resolveTrimOptions(options, config);
      const tokens = countWith(context);
      const workspace = new TrimWorkspace(messages, tokens, config.logdir, config.limit);
      const tokensBefore = workspace.totalTokens;
      const calls = indexToolCalls(messages);
      const preview = { previewLines: resolved.previewLines, previewLineCharacters: resolved.previewLineCharacters };

      const reasoning = stripReasoning(workspace, resolved.reasoningStripAgeThreshold);
      context?.abortSignal?.throwIfAborted();
      let truncated = truncateToolResults(workspace, calls, { threshold: resolved.maxToolResultTokens, ...preview });
      context?.abortSignal?.throwIfAborted();
      const foldOptions = { ageThreshold: resolved.reasoningStripAgeThreshold, previewLineCharacters: resolved.previewLineCharacters };
      let folded = foldToolCallInputs(workspace, { threshold: resolved.maxToolCallTokens, ...foldOptions });
      context?.abortSignal?.throwIfAborted();
      const extracted = compressAssistantMessages(workspace, {
        ageThreshold: resolved.reasoningStripAgeThreshold,
        minTokens: resolved.extractiveMinTokens,
        keepRatio: resolved.extractiveKeepRatio,
      });
      // Extra passes reach many small outputs, so their placeholders keep one head and one tail line.
      const shortPreview = { ...preview, previewLines: Math.min(resolved.previewLines, ADDITIONAL_PASS_PREVIEW_LINES) };
      let callThreshold = resolved.maxToolCallTokens;
      for (const [pass, threshold] of additionalPassThresholds(resolved).entries()) {
        if (!workspace.overLimit) break;
        context?.abortSignal?.throwIfAborted();
        truncated += truncateToolResults(workspace, calls, { threshold, ...shortPreview });
        // The same threshold again would only meet the calls already judged not worth folding.
        const nextCallThreshold = additionalPassToolCallThreshold(resolved, pass);
        if (nextCallThreshold < callThreshold) folded += foldToolCallInputs(workspace, { threshold: nextCallThreshold, ...foldOptions });
        callThreshold = nextCallThreshold;
      }
      context?.logger.debug(
        `trim: ${reasoning} reasoning stripped, ${truncated} tool outputs truncated, ${folded} tool calls folded, ${extracted} messages compressed; ${tokensBefore} -> ${workspace.totalTokens} tokens`,
      );
      return outputFromResult(
        buildCompactionResult({
          input: messages,
          output: workspace.messages,
          tokens,
          startedAt,
          removed: workspace.removed,
          limitations: describeLimitations(workspace, tokensBefore, resolved),
        }),
      );
    },
  };
}
