import {
  providerUsesModel,
  resolveCompressionConfig,
  runStages,
  type ContextProvider,
  type LanguageModel,
  type Logger,
  type Message,
  type MessageShapeRuleSet,
  type ProviderOptions,
  type TokenCounter,
} from '@ollm/core';

/** Share of the budget a compaction aims for, so the turns that follow fit without compacting again. */
export const DEFAULT_SPAN_TARGET_SHARE = 0.7;
/** References a kept compaction holds (the newest); every piece stays in the recovery store regardless. */
export const MAX_SPAN_REFERENCES = 256;

/** What `compactSpan` compacts, and with what. */
export interface CompactSpanOptions {
  /** The messages to compact: an earlier compaction and the span after it, or the whole conversation. */
  readonly messages: readonly Message[];
  /** The stages, in order; each runs only while the messages are over the target. */
  readonly stages: readonly ContextProvider[];
  /** The last resort when the stages leave the messages over the target (the runtime's window guard). */
  readonly guard: ContextProvider;
  /** The most the messages may hold; the stages aim for `targetShare` of it (default `DEFAULT_SPAN_TARGET_SHARE`). */
  readonly budget: number;
  readonly targetShare?: number;
  readonly tokens: TokenCounter;
  readonly shape: MessageShapeRuleSet;
  readonly logger: Logger;
  /** For model stages (goal-aware, summarize); without one they are skipped. */
  readonly model?: LanguageModel;
  readonly providerOptions?: ProviderOptions;
  /** Where stages save what they remove. */
  readonly logdir?: string;
  readonly abortSignal?: AbortSignal;
  /** The stages and references of the compaction these messages continue. */
  readonly previous?: { readonly stages: readonly string[]; readonly references: readonly string[] };
  /** What a failing stage's warning starts with (`ollm serve: `). */
  readonly warningPrefix?: string;
}

/** What `compactSpan` made. The caller decides what `tokensAfter` over the budget means. */
export interface CompactedSpan {
  readonly messages: readonly Message[];
  readonly tokensAfter: number;
  /** `previous.stages`, then each stage that changed the messages now, once. */
  readonly stages: readonly string[];
  /** sha256 of each piece removed now, once. */
  readonly removed: readonly string[];
  /** `previous.references` then `removed`, each once: the newest `MAX_SPAN_REFERENCES`. */
  readonly references: readonly string[];
}

/** The tokens a compaction aims for: a share of the budget, so the turns that follow fit without compacting again. */
export function spanTarget(budget: number, targetShare: number): number {
  return Math.max(1, Math.floor(budget * targetShare));
}

/**
 * The compaction a host that keeps compactions for its next call runs (the runtime's
 * `IncrementalCompactor`, `ollm serve`): core's stage runner over the stages to the target (every
 * output validated, kept only when smaller; a failing stage skipped with a warning, unless the
 * call was aborted), then the guard to the same target when still over it.
 */
export async function compactSpan(options: CompactSpanOptions): Promise<CompactedSpan> {
  const { tokens, logger, model, logdir, providerOptions, shape, abortSignal } = options;
  const target = spanTarget(options.budget, options.targetShare ?? DEFAULT_SPAN_TARGET_SHARE);
  const stages = [...(options.previous?.stages ?? [])];
  const removed = new Set<string>();
  let messages = options.messages;
  const run = async (providers: readonly ContextProvider[]): Promise<void> => {
    const done = await runStages({
      stages: model ? providers : providers.filter((provider) => !providerUsesModel(provider)),
      messages,
      config: resolveCompressionConfig({ limit: target, ...(logdir !== undefined ? { logdir } : {}) }),
      context: { tokens, logger, ...(model ? { model } : {}), ...(abortSignal ? { abortSignal } : {}) },
      ...(providerOptions ? { providerOptions } : {}),
      shape,
      onError: (provider, error) => {
        if (abortSignal?.aborted) return 'throw';
        logger.warn(`${options.warningPrefix ?? ''}${provider.name} failed (${error instanceof Error ? error.message : String(error)}); going on without it`);
        return 'skip';
      },
    });
    messages = done.messages;
    for (const { provider, result } of done.applied) {
      if (!stages.includes(provider)) stages.push(provider);
      for (const piece of result.removed) removed.add(piece.sha256);
    }
  };
  await run(options.stages);
  if (tokens.countMessages(messages) > target) await run([options.guard]);
  return {
    messages,
    tokensAfter: tokens.countMessages(messages),
    stages,
    removed: [...removed],
    references: [...new Set([...(options.previous?.references ?? []), ...removed])].slice(-MAX_SPAN_REFERENCES),
  };
}
