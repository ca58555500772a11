import {
  providerUsesModel,
  resolveCompressionConfig,
  runStages,
  silentLogger,
  type AppliedStage,
  type CompactionResult,
  type ContextProvider,
  type LanguageModel,
  type Logger,
  type TokenCounting,
} from '@ollm/core';
import type { ContextEventEmitter } from '../events/context-events.js';
import type { CircuitBreaker } from './circuit-breaker.js';

/** What the automatic policy needs of the context it compacts (the `ContextManager` gives it). */
export interface StageHost {
  readonly events: ContextEventEmitter;
  readonly breaker: CircuitBreaker;
  readonly tokens: TokenCounting;
  readonly model: LanguageModel | undefined;
  readonly logger: Logger | undefined;
  /** Names of v1 providers to treat as model stages although they do not declare `usesModel`. */
  readonly modelProviders: readonly string[];
  /** Still over the compaction target (or the trigger): another stage should run. */
  overTarget(): boolean;
  targetLimit(): number;
  /** Compacts the live context with one stage (validated); `inputLength` is how many messages it saw. */
  run(stage: ContextProvider, limit: number, abortSignal: AbortSignal | undefined): Promise<{ result: CompactionResult; inputLength: number }>;
  /** Makes a stage's output the active context (messages added while it ran follow it). */
  applyStage(stage: AppliedStage, inputLength: number): void;
}

type ModelStageAttempt = { kind: 'applied'; stage: AppliedStage } | { kind: 'no-saving'; modelCalls: number } | { kind: 'error' } | { kind: 'aborted' };

/**
 * The automatic policy: the rule stages through core's stage runner, then (with `useModel`) the
 * stages that use a model, one at a time behind the circuit breaker, while the context is over its
 * target. Which stage is which comes from the provider (`usesModel`), never from its name. Returns
 * the stages that changed the context; failures are events, and the context stays as it was.
 */
export async function runAutomaticStages(
  host: StageHost,
  stages: readonly ContextProvider[],
  options: { readonly useModel: boolean; readonly abortSignal?: AbortSignal },
): Promise<AppliedStage[]> {
  const { abortSignal } = options;
  const isModelStage = (stage: ContextProvider) => providerUsesModel(stage) || host.modelProviders.includes(stage.name);
  const ruleStages = stages.filter((stage) => !isModelStage(stage));
  const modelStages = stages.filter(isModelStage);
  let inputLength = 0;
  const { applied } = await runStages({
    stages: ruleStages,
    messages: [],
    config: resolveCompressionConfig({ limit: host.targetLimit() }),
    context: { tokens: host.tokens, logger: host.logger ?? silentLogger, ...(abortSignal ? { abortSignal } : {}) },
    shouldContinue: () => host.overTarget(),
    // Each stage compacts the live context: messages added while it runs follow its output.
    runStage: async (stage) => {
      const run = await host.run(stage, host.targetLimit(), abortSignal);
      inputLength = run.inputLength;
      return run.result;
    },
    onApplied: (stage) => host.applyStage(stage, inputLength),
    onNoSaving: (stage, result) => reportNoSaving(host, stage, result),
    onError: (stage, error) => {
      reportStageError(host, stage, error, abortSignal, false);
      return 'skip';
    },
  });
  for (const stage of options.useModel ? modelStages : []) {
    if (abortSignal?.aborted) {
      host.events.emit('compaction-skipped', { provider: stage.name, reason: 'cancelled' });
      break;
    }
    if (!host.overTarget() || !host.model) break;
    if (host.breaker.isOpen) {
      host.events.emit('compaction-skipped', {
        provider: stage.name,
        reason: `circuit open after ${host.breaker.consecutiveFailures} consecutive failures; rule-based stages only`,
      });
      break;
    }
    const attempt = await tryModelStage(host, stage, abortSignal);
    // A cancelled call says nothing about the model: it is no failure for the circuit breaker.
    if (attempt.kind === 'aborted') break;
    if (attempt.kind === 'applied') {
      host.breaker.recordSuccess();
      applied.push(attempt.stage);
      continue;
    }
    // A stage that found nothing to summarise called no model: that is no model failure. One
    // that paid for model calls and saved nothing is, or an empty-reply model would loop.
    if (attempt.kind === 'no-saving' && attempt.modelCalls === 0) continue;
    if (host.breaker.recordFailure()) {
      host.events.emit('circuit-open', {
        provider: stage.name,
        failures: host.breaker.consecutiveFailures,
        fallback: ruleStages.map((rule) => rule.name).join(',') || 'window-guard',
      });
    }
  }
  return applied;
}

function reportNoSaving(host: StageHost, stage: ContextProvider, result: CompactionResult): void {
  const why = result.limitations.length > 0 ? ` (${result.limitations.join('; ')})` : '';
  host.events.emit('compaction-skipped', { provider: stage.name, reason: `the result was not smaller than its input${why}` });
}

/** A failed stage is an event. Only model stages count toward the circuit breaker. */
function reportStageError(host: StageHost, stage: ContextProvider, error: unknown, abortSignal: AbortSignal | undefined, modelStage: boolean): void {
  if (abortSignal?.aborted) {
    host.events.emit('compaction-skipped', { provider: stage.name, reason: 'cancelled' });
    return;
  }
  host.events.emit('compaction-error', {
    provider: stage.name,
    error: error instanceof Error ? error : new Error(String(error)),
    consecutiveFailures: modelStage ? host.breaker.consecutiveFailures + 1 : 0,
  });
}

async function tryModelStage(host: StageHost, provider: ContextProvider, abortSignal: AbortSignal | undefined): Promise<ModelStageAttempt> {
  try {
    const { result, inputLength } = await host.run(provider, host.targetLimit(), abortSignal);
    if (result.stats.tokensAfter >= result.stats.tokensBefore) {
      reportNoSaving(host, provider, result);
      return { kind: 'no-saving', modelCalls: result.stats.modelCalls ?? 0 };
    }
    const stage = { provider: provider.name, result };
    host.applyStage(stage, inputLength);
    return { kind: 'applied', stage };
  } catch (error) {
    reportStageError(host, provider, error, abortSignal, true);
    return abortSignal?.aborted ? { kind: 'aborted' } : { kind: 'error' };
  }
}
