import {
  buildCompactionResult,
  type CompactionResult,
  type CompressionConfig,
  type ContextProviderV2,
  type Message,
  type MessagePart,
  outputFromResult,
  type ProviderContext,
  type RemovedContent,
  saveRemovedContent,
  v1Arguments,
} from '@ollm/core';
import { findObservations } from './find-observations.js';
import { maskedMessage } from './masked-message.js';
import { resolveMaskOptions, type MaskOptions, type ResolvedMaskOptions } from './mask-options.js';
import { planMasking, type MaskingPlan, type PlannedMask } from './plan-masking.js';

export const MASK_PROVIDER_NAME = 'mask';

/**
 * Observation masking (JetBrains, "The Complexity Trap", 2025): the last `keepLast` tool results
 * stay verbatim, older ones become a short placeholder naming the call, the output's size, a
 * one-line hint and where the full output is saved. Tool calls, and every system, user and pinned
 * message, are never touched.
 */
export function createMaskProvider(options: MaskOptions = {}): ContextProviderV2 {
  return {
    specificationVersion: 'v2',
    usesModel: false,
    name: MASK_PROVIDER_NAME,
    description: 'Observation masking: keeps the last M tool results verbatim and masks older ones with recoverable placeholders',
    async compress(call) {
      const { config, context } = v1Arguments(call);
      return outputFromResult(compressMessages(call.messages, config, context, resolveMaskOptions(options, config)));
    },
  };
}

function compressMessages(messages: readonly Message[], config: CompressionConfig, context: ProviderContext, options: ResolvedMaskOptions): CompactionResult {
  const startedAt = performance.now();
  context.abortSignal?.throwIfAborted();
  const tokensBefore = context.tokens.countMessages(messages);
  const plan = planMasking({
    observations: findObservations(messages),
    options,
    tokens: context.tokens,
    tokensBefore,
    ...(config.limit !== undefined ? { limit: config.limit } : {}),
    ...(config.logdir !== undefined ? { logdir: config.logdir } : {}),
  });

  const removed = plan.masks.map((mask) => saveMask(mask, messages, config.logdir));
  const output = applyMasks(messages, plan.masks);
  const limitations = describeLimitations(plan, options, config, tokensBefore);
  context.logger.debug(`mask: masked ${plan.masks.length} tool outputs, ${tokensBefore} -> ${plan.tokensAfter} tokens`);
  return buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt, removed, limitations });
}

function saveMask(mask: PlannedMask, messages: readonly Message[], logdir: string | undefined): RemovedContent {
  const { observation } = mask;
  const entry = {
    messageId: messages[observation.messageIndex]!.id,
    kind: 'tool-result',
    sha256: mask.sha256,
    originalTokens: mask.outputTokens,
  };
  if (logdir === undefined) return entry;
  const saved = saveRemovedContent(logdir, observation.result.output, mask.sha256);
  return { ...entry, path: saved.path };
}

/** New message objects (same id, role, timestamp) only for messages that lost an output; the same ones as last time for the same masks. */
function applyMasks(messages: readonly Message[], masks: readonly PlannedMask[]): Message[] {
  const byMessage = new Map<number, Map<number, MessagePart>>();
  for (const mask of masks) {
    const { messageIndex, partIndex } = mask.observation;
    const parts = byMessage.get(messageIndex) ?? new Map<number, MessagePart>();
    parts.set(partIndex, mask.part);
    byMessage.set(messageIndex, parts);
  }
  return messages.map((message, messageIndex) => {
    const replacements = byMessage.get(messageIndex);
    if (!replacements) return message;
    const parts = message.parts.map((part, partIndex): MessagePart => replacements.get(partIndex) ?? part);
    return maskedMessage(message, parts);
  });
}

function describeLimitations(plan: MaskingPlan, options: ResolvedMaskOptions, config: CompressionConfig, tokensBefore: number): string[] {
  const limitations: string[] = [];
  if (plan.masks.length > 0) {
    limitations.push(
      config.logdir === undefined
        ? `mask: ${plan.masks.length} tool outputs were masked without a logdir; only their sha256 is recorded, the removed content is not recoverable`
        : `mask: ${plan.masks.length} tool outputs were replaced by placeholders; the full outputs are saved under ${config.logdir}`,
    );
  }
  if (config.limit !== undefined && plan.tokensAfter > config.limit) {
    const { kept } = plan;
    limitations.push(
      `mask: still ${plan.tokensAfter} tokens, ${plan.tokensAfter - config.limit} over the limit of ${config.limit} ` +
        `(from ${tokensBefore}) after masking ${plan.masks.length} tool outputs; kept verbatim: the last ${kept.recent} ` +
        `(keepLast ${options.keepLast}), ${kept.neverMask} neverMask, ${kept.wouldNotShrink} too small to shrink, ` +
        `${kept.notEditable} in system/user/pinned messages, ${kept.alreadyMasked} already masked. ` +
        'A later stage (code-aware, goal-aware, summarize) must reduce the rest',
    );
  }
  return limitations;
}
