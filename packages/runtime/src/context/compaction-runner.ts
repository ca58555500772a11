import {
  compactWith,
  DEFAULT_MESSAGE_SHAPE,
  mergeStages,
  silentLogger,
  type AppliedStage,
  type CompactionResult,
  type CompressionConfig,
  type ContextProvider,
  type Message,
  type MessageShapeRuleSet,
  type Pipeline,
  type ProviderContext,
  type TokenCounter,
} from '@ollm/core';
import type { ContextEventEmitter } from '../events/context-events.js';
import { updateGoalFromSpan } from '../goals/goal-from-span.js';
import type { GoalManager } from '../goals/goal-manager.js';
import type { ProviderRegistry } from '../registry/provider-registry.js';
import type { ContextState } from '../storage/snapshot-store.js';
import type { ActiveContext } from './active-context.js';
import { runAutomaticStages, type StageHost } from './automatic-stages.js';
import type { CircuitBreaker } from './circuit-breaker.js';
import { compactionBaseline, reportCompaction, type CompactionBaseline } from './compaction-report.js';
import type { ContextManagerOptions } from './context-manager-options.js';
import type { CompactionOutcome } from './context-manager-types.js';
import type { ContextSnapshots } from './context-snapshots.js';
import type { ContextWindow } from './context-window.js';
import { createWindowGuardProvider } from './window-guard-provider.js';

/** The window guard runs at most this many rounds: each fold adds a quote to the system message. */
const GUARD_ROUNDS = 4;

/** The context as a compaction found it: for its events and its automatic snapshot. */
interface RunStart extends CompactionBaseline {
  readonly state: ContextState;
  readonly tokenCount: number;
}

/** What a runner works on: the parts of one `ContextManager`. */
export interface CompactionRunnerParts {
  readonly options: ContextManagerOptions;
  readonly window: ContextWindow;
  readonly conversation: ActiveContext;
  readonly tokens: TokenCounter;
  readonly events: ContextEventEmitter;
  readonly goals: GoalManager;
  readonly registry: ProviderRegistry;
  readonly breaker: CircuitBreaker;
  readonly snapshots: ContextSnapshots;
  /** The automatic stages, parsed once. */
  readonly pipeline: Pipeline;
  /** Provider-private state (goal-aware's checkpoints), kept across compactions. */
  readonly providerState: Map<string, unknown>;
  /** The full context state, as a snapshot stores it. */
  readonly state: () => ContextState;
}

/**
 * Compacts a `ContextManager`'s live context, one compaction at a time: a provider on a copy of
 * the context (messages added meanwhile follow its output), the automatic policy, the window
 * guard. Each compaction is committed once: one count, one history entry, one `compacted` event,
 * and a snapshot of the context as it was before.
 */
export class CompactionRunner {
  private readonly parts: CompactionRunnerParts;
  /** What the automatic policy sees of this context. */
  private readonly stageHost: StageHost;
  private inFlight: Promise<unknown> | undefined;
  private compactions = 0;
  /** Compactions in which a model wrote a summary: what costs reliability (rule stages keep every piece recoverable). */
  private summaries = 0;

  constructor(parts: CompactionRunnerParts) {
    this.parts = parts;
    const { options, window } = parts;
    this.stageHost = {
      events: parts.events,
      breaker: parts.breaker,
      tokens: parts.tokens,
      model: options.model,
      logger: options.logger,
      modelProviders: options.modelProviders ?? [],
      overTarget: () => window.overTarget(),
      targetLimit: () => window.targetLimit(),
      run: (stage, limit, abortSignal) => this.run(stage, limit, abortSignal),
      applyStage: (stage, inputLength) => this.applyStage(stage, inputLength),
    };
  }

  /** The message shape every stage's output is validated against (`ContextManagerOptions.shape`). */
  private get shape(): MessageShapeRuleSet {
    return this.parts.options.shape ?? DEFAULT_MESSAGE_SHAPE;
  }

  /** Compactions so far (restored with a state). */
  get count(): number {
    return this.compactions;
  }

  set count(value: number) {
    this.compactions = value;
  }

  /** Compactions so far in which a model summarised (restored with a state). */
  get summaryCount(): number {
    return this.summaries;
  }

  set summaryCount(value: number) {
    this.summaries = value;
  }

  /** True while a compaction runs. */
  get running(): boolean {
    return this.inFlight !== undefined;
  }

  /** Resolves once no compaction runs (whether the last one worked or not). */
  async idle(): Promise<void> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
  }

  /** Compacts now with `provider`, after any compaction in flight; on any error the context is unchanged. */
  async compactNow(provider: ContextProvider, abortSignal: AbortSignal | undefined): Promise<CompactionOutcome> {
    await this.idle();
    return this.exclusive(() => this.compactWith(provider, abortSignal));
  }

  /**
   * The automatic policy (`runAutomaticStages`: rule stages, then model stages behind the circuit
   * breaker), then the window guard; one compaction, committed once, if anything changed.
   */
  compactAutomatically(abortSignal: AbortSignal | undefined, useModel = true): Promise<CompactionOutcome | undefined> {
    return this.exclusive(async () => {
      const start = this.runStart();
      const { registry } = this.parts;
      const stages = this.parts.pipeline.names.filter((name) => registry.has(name)).map((name) => registry.get(name));
      const applied = await runAutomaticStages(this.stageHost, stages, { useModel, ...(abortSignal ? { abortSignal } : {}) });
      if (applied.length > 0) this.readSpanIntoGoal(start, applied);
      const guarded = await this.guardWindow();
      if (guarded) applied.push(guarded);
      if (applied.length === 0) return undefined;
      // Written only when the context changed: an attempt that saved nothing must not push useful
      // snapshots out of the retention window (it can repeat every turn while over the trigger).
      this.takeAutoSnapshot('before automatic compaction', start);
      return this.commit('automatic', applied, start);
    });
  }

  private async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const running = work();
    this.inFlight = running;
    try {
      return await running;
    } finally {
      if (this.inFlight === running) this.inFlight = undefined;
    }
  }

  private async compactWith(provider: ContextProvider, abortSignal: AbortSignal | undefined): Promise<CompactionOutcome> {
    const start = this.runStart();
    const { result, inputLength } = await this.run(provider, this.parts.window.targetLimit(), abortSignal);
    if (result.stats.tokensAfter >= result.stats.tokensBefore) {
      // Nothing saved: not a compaction (it must not cost reliability, a snapshot or a history entry).
      // A context over the window still gets the window guard, counted as what it is.
      this.parts.events.emit('compaction-skipped', { provider: provider.name, reason: 'nothing to remove: the result was not smaller than its input' });
      const guarded = this.parts.window.fits() ? undefined : await this.guardWindow();
      if (guarded) {
        this.takeAutoSnapshot('before window-guard', start);
        return this.commit('manual', [guarded], start);
      }
      return { provider: provider.name, trigger: 'manual', result: { ...result, messages: this.parts.conversation.messages } };
    }
    const stage: AppliedStage = { provider: provider.name, result };
    this.takeAutoSnapshot(`before ${provider.name}`, start);
    this.applyStage(stage, inputLength);
    this.readSpanIntoGoal(start, [stage]);
    // A model compaction that worked on request shows the model is back: close the circuit.
    const { modelCalls = 0, tokensAfter, tokensBefore } = stage.result.stats;
    if (modelCalls > 0 && tokensAfter < tokensBefore) this.parts.breaker.recordSuccess();
    const guarded = await this.guardWindow();
    return this.commit('manual', guarded ? [stage, guarded] : [stage], start);
  }

  /**
   * The hard guarantee: what is sent never exceeds the window less the reply reserve, whatever
   * the other stages did. User messages it folds become quotes in the system message, which
   * grows it: so it runs again, a few rounds at most, until the request fits.
   */
  private async guardWindow(): Promise<AppliedStage | undefined> {
    const { window, conversation, tokens } = this.parts;
    const stages: AppliedStage[] = [];
    for (let round = 0; round < GUARD_ROUNDS && !window.fits(); round += 1) {
      const provider = createWindowGuardProvider({ pendingMessageIds: conversation.pendingMessageIds, shape: this.shape });
      const { result, inputLength, input } = await this.run(provider, window.guardLimit());
      if (result.stats.tokensAfter >= result.stats.tokensBefore) break;
      const stage = { provider: provider.name, result };
      this.applyStage(stage, inputLength);
      conversation.keepFoldedAsQuotes(input, result, tokens);
      stages.push(stage);
    }
    return stages.length === 0 ? undefined : { provider: 'window-guard', result: mergeStages(stages).result };
  }

  /**
   * Before the compacted span leaves the context, the goal learns what it did (files written,
   * checkpoints a summary completed): before the window guard, which then counts the goal block
   * as it grew.
   */
  private readSpanIntoGoal(start: RunStart, stages: readonly AppliedStage[]): void {
    const usedModel = stages.some((stage) => (stage.result.stats.modelCalls ?? 0) > 0);
    const { goals, events, conversation } = this.parts;
    const { applied, proposals } = updateGoalFromSpan(goals, start.state.messages, conversation.messages, usedModel);
    for (const proposal of proposals) events.emit('goal-proposed', proposal);
    if (applied.length === 0) return;
    const goal = goals.state;
    if (goal) this.parts.options.history?.appendGoal(goal);
    events.emit('goal-updated', { description: goal?.description, ...(goal ? { goal } : {}), source: 'compaction', updates: applied });
  }

  /** Runs a provider on a copy of the active context, so messages added meanwhile cannot change its input. */
  private async run(
    provider: ContextProvider,
    limit: number,
    abortSignal?: AbortSignal,
  ): Promise<{ result: CompactionResult; inputLength: number; input: readonly Message[] }> {
    const { options } = this.parts;
    const input = [...this.parts.conversation.messages];
    const config: Partial<CompressionConfig> = {
      limit,
      maxToolResultTokens: options.maxToolResultTokens,
      reasoningStripAgeThreshold: options.reasoningStripAgeThreshold,
      logdir: options.logdir,
      extraConfig: options.extraConfig,
    };
    const context: Partial<ProviderContext> = {
      tokens: this.parts.tokens,
      model: options.model,
      logger: options.logger ?? silentLogger,
      goal: this.parts.goals.state,
      state: this.parts.providerState,
      ...(abortSignal ? { abortSignal } : {}),
    };
    const result = await compactWith(provider, input, {
      config,
      context,
      shape: this.shape,
      ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
    });
    return { result, inputLength: input.length, input };
  }

  private runStart(): RunStart {
    return {
      ...compactionBaseline(this.parts.conversation.messages),
      state: this.parts.state(),
      tokenCount: this.parts.window.budget().totalTokens,
    };
  }

  /**
   * A stage's output becomes the active context at once, so the next stage works on it. Messages
   * added while it ran (a compaction can take a model call's time) follow its output.
   */
  private applyStage(stage: AppliedStage, inputLength: number): void {
    this.parts.conversation.replacePrefix(stage.result.messages, inputLength);
  }

  /** Counts, records and reports one compaction, whatever number of stages it took. */
  private commit(trigger: 'automatic' | 'manual', stages: readonly AppliedStage[], start: RunStart): CompactionOutcome {
    const { provider, result } = mergeStages(stages);
    this.compactions += 1;
    if (stages.some((stage) => (stage.result.stats.modelCalls ?? 0) > 0)) this.summaries += 1;
    this.parts.options.history?.recordCompaction({ provider, tokensBefore: result.stats.tokensBefore, tokensAfter: result.stats.tokensAfter });
    reportCompaction(this.parts.events, this.parts.tokens, {
      baseline: start,
      messages: this.parts.conversation.messages,
      provider,
      stages: stages.map((stage) => stage.provider),
      trigger,
      result,
      compactionCount: this.compactions,
    });
    return { provider, trigger, result };
  }

  /** Saves the context a compaction is about to replace, as it was when the compaction started. */
  private takeAutoSnapshot(reason: string, start: RunStart): void {
    if (!this.parts.snapshots.enabled || this.parts.options.autoSnapshot === false) return;
    try {
      this.parts.snapshots.save(reason, true, start.state, start.tokenCount);
    } catch {
      // Reported as snapshot-error; a failed snapshot must not block compaction.
    }
  }
}
