import {
  type CompactionResult,
  compactWith,
  type CompressionConfig,
  type ContextProvider,
  createMessageId,
  createTokenizer,
  isCheckpointMessage,
  type Message,
  MESSAGE_OVERHEAD_TOKENS,
  messageText,
  NoModelError,
  OllmError,
  type AppliedStage,
  mergeStages,
  parsePipeline,
  type Pipeline,
  type ProviderContext,
  silentLogger,
  TokenCounter,
} from '@ollm/core';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import { ContextEventEmitter, type ContextEventListener, type ContextEventName } from '../events/context-events.js';
import { GoalManager } from '../goals/goal-manager.js';
import { computeReliability, parseModelSize, type Reliability } from '../reliability/reliability.js';
import { defaultRegistry, type ProviderRegistry } from '../registry/provider-registry.js';
import type { ContextSnapshot, ContextState, SnapshotSummary } from '../storage/snapshot-store.js';
import { ContextSnapshots } from './context-snapshots.js';
import { compressionBaseline, reportCompression, type CompressionBaseline } from './compression-report.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { runAutomaticStages, type StageHost } from './automatic-stages.js';
import { computeBudget, type ContextBudget } from './context-budget.js';
import type { CompleteOptions, CompressOptions, CompressionOutcome, ContextCompletion, PreparedRequest } from './context-manager-types.js';
import type { ContextManagerOptions } from './context-manager-options.js';
import { ActiveContext } from './active-context.js';
import { renderFoldedQuotes } from './folded-user-quotes.js';
import { truncateOversizedToolResults } from './oversized-tool-results.js';
import { resolveReplyReserve } from './reply-reserve.js';
import { TokenCalibration } from './token-calibration.js';
import { createWindowGuardProvider } from './window-guard-provider.js';

export type { CompleteOptions, CompressOptions, CompressionOutcome, ContextCompletion, PreparedRequest } from './context-manager-types.js';

/** Share of the request limit the folded user quotes may take in the system message. */
const FOLDED_QUOTES_SHARE = 0.1;
/** The window guard runs at most this many rounds: each fold adds a quote to the system message. */
const GUARD_ROUNDS = 4;

/** The context as a compression found it: for its events and its automatic snapshot. */
interface RunStart extends CompressionBaseline {
  readonly state: ContextState;
  readonly tokenCount: number;
}

const DEFAULT_PIPELINE = 'mask,code-aware,trim,goal-aware';

/**
 * Keeps a live conversation inside its window, turn by turn: `addMessage`, then
 * `messagesForModel()` to send; compression runs automatically at threshold x available (cheap
 * rule-based stages first, the model-based provider only when they are not enough) or on request.
 * The full record goes to the session history; compression only changes what is sent.
 */
export class ContextManager {
  readonly events = new ContextEventEmitter();
  readonly goals = new GoalManager();
  readonly tokens: TokenCounter;
  private readonly options: ContextManagerOptions;
  private readonly registry: ProviderRegistry;
  private readonly breaker: CircuitBreaker;
  private readonly calibration = new TokenCalibration();
  private readonly providerState = new Map<string, unknown>();
  private readonly snapshots: ContextSnapshots;
  private inFlight: Promise<unknown> | undefined;
  private readonly replyReserve: number;
  /** The automatic stages, parsed once. */
  private readonly pipeline: Pipeline;
  private readonly clock: () => Date;
  private systemPrompt: string;
  private readonly conversation = new ActiveContext();
  private compressions = 0;
  private warnedAboutCalibration = false;

  /** What the automatic policy sees of this context. */
  private readonly stageHost: StageHost;

  constructor(options: ContextManagerOptions) {
    if (!(options.contextSize > 0)) throw new OllmError({ code: 'invalid-argument', message: 'contextSize must be a positive number of tokens.' });
    this.options = options;
    this.replyReserve = resolveReplyReserve(options.contextSize, options.replyReserve);
    this.pipeline = parsePipeline(options.autoPipeline ?? DEFAULT_PIPELINE);
    this.clock = options.clock ?? (() => new Date());
    this.tokens = options.tokens ?? new TokenCounter(createTokenizer('o200k_base'));
    this.registry = options.registry ?? defaultRegistry;
    this.breaker = new CircuitBreaker(options.circuitBreakerFailures ?? 3);
    this.stageHost = {
      events: this.events,
      breaker: this.breaker,
      tokens: this.tokens,
      model: options.model,
      logger: options.logger,
      modelProviders: options.modelProviders ?? [],
      overTarget: () => this.overTarget(),
      targetLimit: () => this.targetLimit(),
      run: (stage, limit, abortSignal) => this.run(stage, limit, abortSignal),
      applyStage: (stage, inputLength) => this.applyStage(stage, inputLength),
    };
    this.systemPrompt = options.systemPrompt ?? '';
    this.snapshots = new ContextSnapshots({
      store: options.snapshots,
      sessionId: options.sessionId ?? options.history?.sessionId ?? 'default',
      events: this.events,
      modelName: options.modelName,
    });
  }

  on<Name extends ContextEventName>(name: Name, listener: ContextEventListener<Name>): () => void {
    return this.events.on(name, listener);
  }

  get compressionCount(): number {
    return this.compressions;
  }

  /** The messages in the active context (without the system prompt). */
  get activeMessages(): readonly Message[] {
    return this.conversation.messages;
  }

  /** Adds a message (id and timestamp filled in when missing), records it, and reads goal markers. */
  addMessage(message: Omit<Message, 'id'> & { id?: string }): Message {
    const complete: Message = { ...message, id: message.id ?? createMessageId(), timestamp: message.timestamp ?? this.clock().toISOString() };
    this.conversation.add(complete);
    this.options.history?.append(complete, this.tokens.countMessage(complete));
    if (complete.role === 'assistant') {
      const updates = this.goals.applyAssistantOutput(messageText(complete));
      if (updates.length > 0) this.events.emit('goal-updated', { description: this.goals.state?.description });
    }
    return complete;
  }

  /**
   * Takes a message out of the active context (the session history keeps it): for a message that
   * could not be sent. Returns false when no such message is active.
   */
  removeMessage(messageId: string): boolean {
    return this.conversation.remove(messageId);
  }

  setSystemPrompt(prompt: string): void {
    this.systemPrompt = prompt;
  }

  setGoal(description: string): void {
    this.goals.setGoal(description);
    this.events.emit('goal-updated', { description });
  }

  /**
   * The system message: the system prompt, the goal block and the quotes of user messages folded
   * out of the conversation; none of it is ever compressed.
   */
  systemMessage(): Message | undefined {
    const goal = this.goals.render();
    const base = [this.systemPrompt, goal].filter((part) => part.length > 0).join('\n\n');
    const quotes = this.conversation.foldedQuotes.length > 0 ? renderFoldedQuotes(this.conversation.foldedQuotes, this.quotesBudget(base), this.tokens) : '';
    const text = [base, quotes].filter((part) => part.length > 0).join('\n\n');
    if (text.length === 0) return undefined;
    return { id: 'ollm-system', role: 'system', parts: [{ type: 'text', text }], pinned: true };
  }

  /** What to send to the model now: the system message, then the active context. */
  messagesForModel(): Message[] {
    const system = this.systemMessage();
    return system ? [system, ...this.conversation.messages] : [...this.conversation.messages];
  }

  budget(): ContextBudget {
    const system = this.systemMessage();
    let checkpointTokens = 0;
    let conversationTokens = 0;
    for (const message of this.conversation.messages) {
      const tokens = this.tokens.countMessage(message);
      if (isCheckpointMessage(message)) checkpointTokens += tokens;
      else conversationTokens += tokens;
    }
    return computeBudget({
      contextSize: this.options.contextSize,
      replyReserve: this.replyReserve,
      systemTokens: this.calibration.apply(system ? this.tokens.countMessage(system) : 0),
      checkpointTokens: this.calibration.apply(checkpointTokens),
      conversationTokens: this.calibration.apply(conversationTokens),
      threshold: this.options.threshold ?? 0.8,
    });
  }

  /**
   * Tell the runtime the prompt size a model server reported for `messagesForModel()`. The
   * calibration is clamped and smoothed; a reading far from the local count is ignored, and said
   * once through the logger.
   */
  recordReportedPromptTokens(reportedTokens: number, sentMessages: readonly Message[] = this.messagesForModel()): void {
    const estimated = this.tokens.countMessages(sentMessages);
    if (this.calibration.record(estimated, reportedTokens) !== 'ignored' || this.warnedAboutCalibration) return;
    this.warnedAboutCalibration = true;
    (this.options.logger ?? silentLogger).warn(
      `the model server reported ${reportedTokens} prompt tokens for a request counted locally at ${estimated}; readings that far off are ignored (token counts stay x${this.calibration.ratio.toFixed(2)})`,
    );
  }

  get calibrationRatio(): number {
    return this.calibration.ratio;
  }

  reliability(): Reliability {
    const size = this.options.modelSizeBillions ?? parseModelSize(this.options.modelName);
    return computeReliability({ modelSizeBillions: size, compressionCount: this.compressions });
  }

  /** The tokens kept back for the reply (sent as the reply limit). */
  get reserveForReply(): number {
    return this.replyReserve;
  }

  shouldCompress(): boolean {
    const budget = this.budget();
    return budget.conversationTokens >= budget.trigger || budget.totalTokens > budget.requestLimit;
  }

  /** True when the request `messagesForModel()` would make fits the window less the reply reserve. */
  fitsWindow(): boolean {
    const budget = this.budget();
    return budget.totalTokens <= budget.requestLimit;
  }

  /** Compresses when the budget says so (after adding a message); returns what ran, if anything. */
  async maybeCompress(options: CompressOptions = {}): Promise<CompressionOutcome | undefined> {
    // One compression at a time: while one runs, the next turn's call checks again.
    if (this.inFlight) return undefined;
    if (this.options.automaticCompression === false) {
      this.events.emit('compression-skipped', { provider: 'automatic', reason: 'automatic compression is off; requests are still kept inside the window' });
      return undefined;
    }
    if (!this.shouldCompress()) {
      const budget = this.budget();
      this.events.emit('compression-skipped', {
        provider: 'automatic',
        reason: `not needed: the conversation holds ${budget.conversationTokens} tokens, under the trigger of ${budget.trigger}`,
      });
      return undefined;
    }
    return this.exclusive(() => this.autoCompress(options.abortSignal));
  }

  /**
   * The window rule, before any request: the whole request (system prompt, goal block, folded
   * quotes, checkpoints, conversation, the message waiting for its reply) must fit
   * `contextSize - replyReserve`. A tool result far over `maxToolResultTokens` is cut first,
   * whatever the threshold; then, if the request does not fit, it is compressed (rule stages,
   * the model stage, the window guard) before anything is sent. Throws `ContextOverflowError`
   * when even that cannot make it fit; nothing is sent then.
   */
  async prepareRequest(options: CompressOptions = {}): Promise<PreparedRequest> {
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    this.limitToolResults();
    if (!this.fitsWindow()) await this.exclusive(() => this.autoCompress(options.abortSignal, this.options.automaticCompression !== false));
    const budget = this.budget();
    if (budget.totalTokens > budget.requestLimit) {
      const pending = this.conversation.messages.at(-1);
      const pendingTokens = pending && pending.role === 'user' ? this.calibration.apply(this.tokens.countMessage(pending)) : undefined;
      const alone = pending && pendingTokens !== undefined && pendingTokens + budget.systemTokens > budget.requestLimit;
      throw new ContextOverflowError({
        requestTokens: budget.totalTokens,
        requestLimit: budget.requestLimit,
        contextSize: budget.contextSize,
        replyReserve: budget.replyReserve,
        ...(alone ? { messageId: pending.id, messageTokens: pendingTokens } : {}),
      });
    }
    return { messages: this.messagesForModel(), maxOutputTokens: this.replyReserve, tokens: budget.totalTokens, requestLimit: budget.requestLimit };
  }

  /**
   * Sends the context to the model under the window rule (`prepareRequest`), with the reply
   * reserve as the reply limit, and learns from the prompt size the server reports. The reply is
   * returned, not added: the caller adds it (or the part of it a cancelled stream delivered).
   */
  async complete(options: CompleteOptions = {}): Promise<ContextCompletion> {
    const model = options.model ?? this.options.model;
    if (!model) throw new NoModelError({ needer: 'complete()', message: 'complete() needs a model: pass `model` to the ContextManager or to complete().' });
    const request = await this.prepareRequest(options.abortSignal ? { abortSignal: options.abortSignal } : {});
    const result = await model.complete({
      messages: request.messages,
      maxOutputTokens: request.maxOutputTokens,
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
      ...(options.onTextDelta ? { onTextDelta: options.onTextDelta } : {}),
    });
    if (result.usage.inputTokens !== undefined) this.recordReportedPromptTokens(result.usage.inputTokens, request.messages);
    return { ...result, request };
  }

  /** Cuts tool results far over `maxToolResultTokens` in the active context (not in the history). */
  private limitToolResults(): void {
    const { messages, truncated } = truncateOversizedToolResults(this.conversation.messages, {
      tokens: this.tokens,
      maxToolResultTokens: this.options.maxToolResultTokens ?? 2000,
      ...(this.options.logdir ? { logdir: this.options.logdir } : {}),
    });
    if (truncated.length === 0) return;
    this.conversation.replacePrefix(messages, messages.length);
    this.events.emit('tool-results-truncated', { results: truncated });
  }

  /**
   * Room for the folded quotes: their share of the request limit, and never more than the request
   * leaves (in uncalibrated tokens), so quotes of old messages cannot push the pending one out.
   */
  private quotesBudget(systemText: string): number {
    const rawLimit = Math.floor((this.options.contextSize - this.replyReserve) / this.calibration.ratio);
    const room = rawLimit - this.tokens.countText(systemText) - MESSAGE_OVERHEAD_TOKENS - this.tokens.countMessages(this.conversation.messages);
    return Math.max(0, Math.min(Math.floor(rawLimit * FOLDED_QUOTES_SHARE), room));
  }

  /**
   * Compresses now with a named provider or pipeline (`trim`, `mask,code-aware,trim`). Errors are
   * typed; on any error the context is unchanged.
   */
  async compress(providerName: string, options: CompressOptions = {}): Promise<CompressionOutcome> {
    const provider = this.registry.get(providerName);
    while (this.inFlight) await this.inFlight.catch(() => undefined);
    return this.exclusive(() => this.compressWith(provider, options.abortSignal));
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

  private async compressWith(provider: ContextProvider, abortSignal: AbortSignal | undefined): Promise<CompressionOutcome> {
    const start = this.runStart();
    const { result, inputLength } = await this.run(provider, this.targetLimit(), abortSignal);
    if (result.stats.tokensAfter >= result.stats.tokensBefore && this.fitsWindow()) {
      // Nothing saved: not a compression (it must not cost reliability, a snapshot or a history entry).
      this.events.emit('compression-skipped', { provider: provider.name, reason: 'nothing to remove: the result was not smaller than its input' });
      return { provider: provider.name, trigger: 'manual', result: { ...result, messages: this.conversation.messages } };
    }
    const stage: AppliedStage = { provider: provider.name, result };
    this.takeAutoSnapshot(`before ${provider.name}`, start);
    this.applyStage(stage, inputLength);
    // A model compression that worked on request shows the model is back: close the circuit.
    const { modelCalls = 0, tokensAfter, tokensBefore } = stage.result.stats;
    if (modelCalls > 0 && tokensAfter < tokensBefore) this.breaker.recordSuccess();
    const guarded = await this.guardWindow();
    return this.commit('manual', guarded ? [stage, guarded] : [stage], start);
  }

  /**
   * The automatic policy (`runAutomaticStages`: rule stages, then model stages behind the circuit
   * breaker), then the window guard; one compression, committed once, if anything changed.
   */
  private async autoCompress(abortSignal: AbortSignal | undefined, useModel = true): Promise<CompressionOutcome | undefined> {
    const start = this.runStart();
    const stages = this.pipeline.names.filter((name) => this.registry.has(name)).map((name) => this.registry.get(name));
    const applied = await runAutomaticStages(this.stageHost, stages, { useModel, ...(abortSignal ? { abortSignal } : {}) });
    const guarded = await this.guardWindow();
    if (guarded) applied.push(guarded);
    if (applied.length === 0) return undefined;
    // Written only when the context changed: an attempt that saved nothing must not push useful
    // snapshots out of the retention window (it can repeat every turn while over the trigger).
    this.takeAutoSnapshot('before automatic compression', start);
    return this.commit('automatic', applied, start);
  }

  /**
   * The hard guarantee: what is sent never exceeds the window less the reply reserve, whatever
   * the other stages did. User messages it folds become quotes in the system message, which
   * grows it: so it runs again, a few rounds at most, until the request fits.
   */
  private async guardWindow(): Promise<AppliedStage | undefined> {
    const stages: AppliedStage[] = [];
    for (let round = 0; round < GUARD_ROUNDS && !this.fitsWindow(); round += 1) {
      const provider = createWindowGuardProvider({ pendingMessageIds: this.conversation.pendingMessageIds });
      const { result, inputLength, input } = await this.run(provider, this.guardLimit());
      if (result.stats.tokensAfter >= result.stats.tokensBefore) break;
      const stage = { provider: provider.name, result };
      this.applyStage(stage, inputLength);
      this.conversation.keepFoldedAsQuotes(input, result, this.tokens);
      stages.push(stage);
    }
    return stages.length === 0 ? undefined : { provider: 'window-guard', result: mergeStages(stages).result };
  }

  /**
   * Where the window guard cuts to, in uncalibrated tokens: the trigger (threshold x what the
   * request limit leaves after the system message), so it drops no more than it must and the next
   * turn does not compress again at once.
   */
  private guardLimit(): number {
    const system = this.systemMessage();
    const rawRequestLimit = Math.floor(this.budget().requestLimit / this.calibration.ratio);
    const rawSystem = system ? this.tokens.countMessage(system) : 0;
    return Math.max(1, Math.floor((rawRequestLimit - rawSystem) * (this.options.threshold ?? 0.8)));
  }

  /**
   * The size compression aims for, in uncalibrated tokens as providers count them: targetRatio
   * of what the request limit leaves after the system message.
   */
  private targetLimit(): number {
    const budget = this.budget();
    const system = this.systemMessage();
    const rawRequestLimit = Math.floor(budget.requestLimit / this.calibration.ratio);
    const rawSystem = system ? this.tokens.countMessage(system) : 0;
    return Math.max(1, Math.floor((rawRequestLimit - rawSystem) * (this.options.targetRatio ?? 0.5)));
  }

  private overTarget(): boolean {
    return this.tokens.countMessages(this.conversation.messages) > this.targetLimit() || this.shouldCompress();
  }

  /** Runs a provider on a copy of the active context, so messages added meanwhile cannot change its input. */
  private async run(
    provider: ContextProvider,
    limit = this.targetLimit(),
    abortSignal?: AbortSignal,
  ): Promise<{ result: CompactionResult; inputLength: number; input: readonly Message[] }> {
    const input = [...this.conversation.messages];
    const config: Partial<CompressionConfig> = {
      limit,
      maxToolResultTokens: this.options.maxToolResultTokens,
      reasoningStripAgeThreshold: this.options.reasoningStripAgeThreshold,
      logdir: this.options.logdir,
      extraConfig: this.options.extraConfig,
    };
    const context: Partial<ProviderContext> = {
      tokens: this.tokens,
      model: this.options.model,
      logger: this.options.logger ?? silentLogger,
      goal: this.goals.state,
      state: this.providerState,
      ...(abortSignal ? { abortSignal } : {}),
    };
    return {
      result: await compactWith(provider, input, {
        config,
        context,
        ...(this.options.providerOptions ? { providerOptions: this.options.providerOptions } : {}),
      }),
      inputLength: input.length,
      input,
    };
  }

  private runStart(): RunStart {
    return {
      ...compressionBaseline(this.conversation.messages),
      state: this.state(),
      tokenCount: this.budget().totalTokens,
    };
  }

  /**
   * A stage's output becomes the active context at once, so the next stage works on it. Messages
   * added while it ran (a compression can take a model call's time) follow its output.
   */
  private applyStage(stage: AppliedStage, inputLength: number): void {
    this.conversation.replacePrefix(stage.result.messages, inputLength);
  }

  /** Counts, records and reports one compression, whatever number of stages it took. */
  private commit(trigger: 'automatic' | 'manual', stages: readonly AppliedStage[], start: RunStart): CompressionOutcome {
    const { provider, result } = mergeStages(stages);
    this.compressions += 1;
    this.options.history?.recordCompression({ provider, tokensBefore: result.stats.tokensBefore, tokensAfter: result.stats.tokensAfter });
    reportCompression(this.events, this.tokens, {
      baseline: start,
      messages: this.conversation.messages,
      provider,
      stages: stages.map((stage) => stage.provider),
      trigger,
      result,
      compressionCount: this.compressions,
    });
    return { provider, trigger, result };
  }

  /** The full context state, as a snapshot stores it. */
  state(): ContextState {
    return {
      systemPrompt: this.systemPrompt,
      messages: [...this.conversation.messages],
      ...(this.goals.state ? { goal: this.goals.state } : {}),
      compressionCount: this.compressions,
      providerState: Object.fromEntries(this.providerState),
      ...(this.conversation.foldedQuotes.length > 0 ? { foldedQuotes: [...this.conversation.foldedQuotes] } : {}),
    };
  }

  createSnapshot(reason = 'manual', automatic = false): ContextSnapshot {
    return this.snapshots.save(reason, automatic, this.state(), this.budget().totalTokens);
  }

  listSnapshots(): SnapshotSummary[] {
    return this.snapshots.list();
  }

  /** Restores exactly the saved context: messages, goal, system prompt, provider state, compression count. */
  restoreSnapshot(snapshotId: string): ContextSnapshot {
    const snapshot = this.snapshots.read(snapshotId);
    this.restoreState(snapshot.context);
    this.events.emit('snapshot-restored', { snapshotId });
    return snapshot;
  }

  restoreState(state: ContextState): void {
    this.systemPrompt = state.systemPrompt;
    this.conversation.restore(state.messages, state.foldedQuotes);
    if (state.goal) this.goals.restore(state.goal);
    else this.goals.clear();
    this.compressions = state.compressionCount;
    this.providerState.clear();
    for (const [key, value] of Object.entries(state.providerState ?? {})) this.providerState.set(key, value);
  }

  /** Saves the context a compression is about to replace, as it was when the compression started. */
  private takeAutoSnapshot(reason: string, start: RunStart): void {
    if (!this.snapshots.enabled || this.options.autoSnapshot === false) return;
    try {
      this.snapshots.save(reason, true, start.state, start.tokenCount);
    } catch {
      // Reported as snapshot-error; a failed snapshot must not block compression.
    }
  }
}
