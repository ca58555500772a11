import {
  ModelResponseError,
  readContextOverflowRefusal,
  type LanguageModelResult,
  createMessageId,
  createTokenizer,
  type GoalPriority,
  type GoalState,
  type GoalUpdate,
  InvalidArgumentError,
  isMessageShapeRuleSet,
  type Message,
  messageText,
  NoModelError,
  OllmError,
  parsePipeline,
  silentLogger,
  TokenCounter,
} from '@ollm/core';
import { ContextEventEmitter, type ContextEventListener, type ContextEventName } from '../events/context-events.js';
import { GoalManager } from '../goals/goal-manager.js';
import { computeReliability, parseModelSize, type Reliability } from '../reliability/reliability.js';
import { defaultRegistry, type ProviderRegistry } from '../registry/provider-registry.js';
import { compactionCountOf, summaryCountOf, type ContextSnapshot, type ContextState, type SnapshotSummary } from '../storage/snapshot-store.js';
import { ActiveContext } from './active-context.js';
import { CircuitBreaker } from './circuit-breaker.js';
import { CompactionBackoff } from './compaction-backoff.js';
import { CompactionRunner } from './compaction-runner.js';
import type { ContextBudget } from './context-budget.js';
import type { ContextManagerOptions } from './context-manager-options.js';
import type { CompactionOutcome, CompactOptions, CompleteOptions, ContextCompletion, PreparedRequest } from './context-manager-types.js';
import { ContextSnapshots } from './context-snapshots.js';
import { ContextWindow } from './context-window.js';
import { truncateOversizedToolResults } from './oversized-tool-results.js';
import { resolveReplyReserve } from './reply-reserve.js';
import { TokenCalibration } from './token-calibration.js';

const DEFAULT_PIPELINE = 'fold,goal-aware';

/**
 * Keeps a live conversation inside its window, turn by turn: `addMessage`, then `complete()` (or
 * `prepareRequest()` and a client of your own) under the window rule, then `maybeCompact()`.
 * Compaction runs automatically at threshold x available (cheap rule-based stages first, the
 * model-based provider only when they are not enough) or on request (`compact(name)`). The full
 * record goes to the session history; compaction only changes what is sent. What fills the window
 * is measured by `ContextWindow`, compactions are run by `CompactionRunner`.
 */
export class ContextManager {
  readonly events = new ContextEventEmitter();
  /** The goal in the system prompt: the user's outranks the model's markers (option `goalMarkers`). */
  readonly goals: GoalManager;
  readonly tokens: TokenCounter;
  private readonly options: ContextManagerOptions;
  private readonly registry: ProviderRegistry;
  private readonly calibration = new TokenCalibration();
  private readonly providerState = new Map<string, unknown>();
  private readonly snapshots: ContextSnapshots;
  private replyReserve: number;
  private readonly automaticCompaction: boolean;
  private readonly clock: () => Date;
  private readonly conversation = new ActiveContext();
  private readonly window: ContextWindow;
  private readonly runner: CompactionRunner;
  private readonly backoff = new CompactionBackoff();
  private warnedAboutCalibration = false;

  constructor(options: ContextManagerOptions) {
    if (!(options.contextSize > 0)) throw new OllmError({ code: 'invalid-argument', message: 'contextSize must be a positive number of tokens.' });
    if (options.shape !== undefined && !isMessageShapeRuleSet(options.shape)) {
      throw new InvalidArgumentError({
        argument: 'shape',
        message: `The shape option must be a message-shape rule set, "openai" or "strict"; got ${JSON.stringify(options.shape)}.`,
      });
    }
    this.options = options;
    this.clock = options.clock ?? (() => new Date());
    this.goals = new GoalManager(undefined, { ...(options.goalMarkers !== undefined ? { modelMarkers: options.goalMarkers } : {}), clock: this.clock });
    this.replyReserve = resolveReplyReserve(options.contextSize, options.replyReserve);
    this.automaticCompaction = (options.automaticCompaction ?? options.automaticCompression) !== false;
    this.tokens = options.tokens ?? new TokenCounter(createTokenizer('o200k_base'));
    this.registry = options.registry ?? defaultRegistry;
    this.snapshots = new ContextSnapshots({
      store: options.snapshots,
      sessionId: options.sessionId ?? options.history?.sessionId ?? 'default',
      events: this.events,
      modelName: options.modelName,
    });
    this.window = new ContextWindow({
      contextSize: options.contextSize,
      replyReserve: this.replyReserve,
      threshold: options.threshold ?? 0.8,
      targetRatio: options.targetRatio ?? 0.5,
      tokens: this.tokens,
      calibration: this.calibration,
      conversation: this.conversation,
      goals: this.goals,
      systemPrompt: options.systemPrompt ?? '',
    });
    this.runner = new CompactionRunner({
      options,
      window: this.window,
      conversation: this.conversation,
      tokens: this.tokens,
      events: this.events,
      goals: this.goals,
      registry: this.registry,
      breaker: new CircuitBreaker(options.circuitBreakerFailures ?? 3),
      snapshots: this.snapshots,
      pipeline: parsePipeline(options.autoPipeline ?? DEFAULT_PIPELINE),
      providerState: this.providerState,
      state: () => this.state(),
    });
  }

  on<Name extends ContextEventName>(name: Name, listener: ContextEventListener<Name>): () => void {
    return this.events.on(name, listener);
  }

  /** Compactions so far (a restored state brings its own count). */
  /** Compactions in which a model wrote a summary: what `reliability()` counts. */
  get summaryCount(): number {
    return this.runner.summaryCount;
  }

  get compactionCount(): number {
    return this.runner.count;
  }

  /** @deprecated Use `compactionCount`. */
  get compressionCount(): number {
    return this.compactionCount;
  }

  /** The messages in the active context (without the system prompt). */
  get activeMessages(): readonly Message[] {
    return this.conversation.messages;
  }

  /**
   * Adds a message (id and timestamp filled in when missing), records it, and reads the goal
   * markers of its text: a user message's apply with the user's authority; in assistant text a
   * `[GOAL]` applies only as `goalMarkers` allows and a `[DECISION] … - LOCKED` only proposes (the
   * user locks decisions), each reported (`goal-proposed`). Tool output is never read.
   */
  addMessage(message: Omit<Message, 'id'> & { id?: string }): Message {
    const complete: Message = { ...message, id: message.id ?? createMessageId(), timestamp: message.timestamp ?? this.clock().toISOString() };
    this.conversation.add(complete);
    this.options.history?.append(complete, this.tokens.countMessage(complete));
    if (complete.role === 'assistant' || complete.role === 'user') {
      const previous = this.goals.state?.id;
      // The user's own marker lines (`[DECISION] … - LOCKED`) carry the user's authority.
      const { applied, proposals } = this.goals.applyMarkers(messageText(complete), complete.role);
      for (const proposal of proposals) this.events.emit('goal-proposed', proposal);
      if (applied.length > 0) this.emitGoalUpdated('message', applied, this.endedSince(previous));
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
    this.window.systemPrompt = prompt;
  }

  /** Sets the user's goal (the one it replaces goes into the goal history as abandoned). */
  setGoal(description: string, priority?: GoalPriority): void {
    const previous = this.goals.state?.id;
    this.goals.setGoal(description, priority);
    this.emitGoalUpdated('user', undefined, this.endedSince(previous));
  }

  /**
   * Ends the current goal as completed (`/goal done`) or abandoned: it moves into the goal history
   * and leaves the system prompt. Returns it as ended; undefined when there was no goal.
   */
  finishGoal(status: 'completed' | 'abandoned'): GoalState | undefined {
    const ended = this.goals.finish(status);
    if (ended) this.emitGoalUpdated('user', undefined, ended);
    return ended;
  }

  /** Records the user's decision under the current goal, locked or open; false when there is no goal. */
  decide(description: string, locked: boolean): boolean {
    const done = this.goals.decide(description, locked);
    if (done) this.emitGoalUpdated('user');
    return done;
  }

  /** Drops a decision from the current goal (a model's proposal the user rejects); false when none has that text. */
  dropDecision(description: string): boolean {
    const done = this.goals.dropDecision(description);
    if (done) this.emitGoalUpdated('user');
    return done;
  }

  /** Sets the current goal's priority; false when there is no goal. */
  setGoalPriority(priority: GoalPriority): boolean {
    const set = this.goals.setPriority(priority);
    if (set) this.emitGoalUpdated('user');
    return set;
  }

  /** The goal a change just ended (moved into the goal history), given the id the current goal had before. */
  private endedSince(previousId: string | undefined): GoalState | undefined {
    const last = this.goals.history.at(-1);
    return previousId !== undefined && last?.id === previousId && this.goals.state?.id !== previousId ? last : undefined;
  }

  /** Reports a goal change, and records the goal states it left in the session history (what `ollm sessions search` reads). */
  private emitGoalUpdated(source: 'user' | 'message', updates?: readonly GoalUpdate[], ended?: GoalState): void {
    const goal = this.goals.state;
    if (ended) this.options.history?.appendGoal(ended);
    if (goal) this.options.history?.appendGoal(goal);
    this.events.emit('goal-updated', {
      description: goal?.description,
      ...(goal ? { goal } : {}),
      ...(ended ? { ended } : {}),
      source,
      ...(updates ? { updates } : {}),
    });
  }

  /**
   * The system message: the system prompt, the goal block and the quotes of user messages folded
   * out of the conversation; none of it is ever compacted.
   */
  systemMessage(): Message | undefined {
    return this.window.systemMessage();
  }

  /** What to send to the model now: the system message, then the active context. */
  messagesForModel(): Message[] {
    return this.window.messagesForModel();
  }

  budget(): ContextBudget {
    return this.window.budget();
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

  /** The model's size in billions of parameters (the option, else read from its name); undefined when unknown. */
  get modelSizeBillions(): number | undefined {
    return this.options.modelSizeBillions ?? parseModelSize(this.options.modelName);
  }

  reliability(): Reliability {
    const size = this.modelSizeBillions;
    // Model summaries cost reliability; rule-based compactions (every piece kept, recoverable) do not.
    return computeReliability({ modelSizeBillions: size, compactionCount: this.summaryCount });
  }

  /** The tokens kept back for the reply (sent as the reply limit). */
  get reserveForReply(): number {
    return this.replyReserve;
  }

  /** True at the trigger, or when the request does not fit. */
  shouldCompact(): boolean {
    return this.window.shouldCompact();
  }

  /** @deprecated Use `shouldCompact`. */
  shouldCompress(): boolean {
    return this.shouldCompact();
  }

  /** True when the request `messagesForModel()` would make fits the window less the reply reserve. */
  fitsWindow(): boolean {
    return this.window.fits();
  }

  /** Compacts when the budget says so (after adding a message); returns what ran, if anything. */
  async maybeCompact(options: CompactOptions = {}): Promise<CompactionOutcome | undefined> {
    // One compaction at a time: while one runs, the next turn's call checks again.
    if (this.runner.running) return undefined;
    if (!this.automaticCompaction) {
      this.events.emit('compaction-skipped', { provider: 'automatic', reason: 'automatic compaction is off; requests are still kept inside the window' });
      return undefined;
    }
    if (!this.shouldCompact()) {
      const budget = this.budget();
      this.events.emit('compaction-skipped', {
        provider: 'automatic',
        reason: `not needed: the conversation holds ${budget.conversationTokens} tokens, under the trigger of ${budget.trigger}`,
      });
      return undefined;
    }
    const backoff = this.backoff.active(this.budget());
    if (backoff) {
      this.events.emit('compaction-skipped', {
        provider: 'automatic',
        reason: `backing off: the last compaction left ${backoff.tokensAfter} tokens, over the trigger of ${backoff.trigger}; the next attempt at ${backoff.retryAt}`,
      });
      return undefined;
    }
    const outcome = await this.runner.compactAutomatically(options.abortSignal);
    const started = this.backoff.record(this.budget());
    if (started) {
      this.events.emit('compaction-backoff', {
        ...started,
        reason: `compaction could not bring the conversation under the trigger (${started.tokensAfter} of ${started.trigger} tokens: pinned messages, checkpoints and messages waiting for a reply are kept); automatic compaction waits until it holds ${started.retryAt}`,
      });
    }
    return outcome;
  }

  /** @deprecated Use `maybeCompact`. */
  maybeCompress(options: CompactOptions = {}): Promise<CompactionOutcome | undefined> {
    return this.maybeCompact(options);
  }

  /**
   * The window rule, before any request: the whole request (system prompt, goal block, folded
   * quotes, checkpoints, conversation, the message waiting for its reply) must fit
   * `contextSize - replyReserve`. A tool result far over `maxToolResultTokens` is cut first,
   * whatever the threshold; then, if the request does not fit, it is compacted (rule stages,
   * the model stage, the window guard) before anything is sent. Throws `ContextOverflowError`
   * when even that cannot make it fit; nothing is sent then.
   */
  async prepareRequest(options: CompactOptions = {}): Promise<PreparedRequest> {
    await this.runner.idle();
    this.limitToolResults();
    if (!this.fitsWindow()) {
      // A message that cannot fit even alone is refused before anything is compacted: compacting
      // the rest would empty the context and the request would still not fit.
      const overflow = this.window.overflow();
      if (overflow.messageId !== undefined) throw overflow;
      await this.runner.compactAutomatically(options.abortSignal, this.automaticCompaction);
    }
    if (!this.fitsWindow()) throw this.window.overflow();
    const budget = this.budget();
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
    const prepare = () => this.prepareRequest(options.abortSignal ? { abortSignal: options.abortSignal } : {});
    const send = (prepared: PreparedRequest) =>
      model.complete({
        messages: prepared.messages,
        maxOutputTokens: prepared.maxOutputTokens,
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        ...(options.abortSignal ? { abortSignal: options.abortSignal } : {}),
        ...(options.onTextDelta ? { onTextDelta: options.onTextDelta } : {}),
      });
    let request = await prepare();
    let result: LanguageModelResult;
    try {
      result = await send(request);
    } catch (error) {
      // The server refused the request as over its window (llama.cpp's exceed_context_size_error,
      // vLLM's "maximum context length"): learn what it said, fit the context to it and send once more.
      if (!this.learnFromOverflow(error, request.messages)) throw error;
      request = await prepare();
      result = await send(request);
    }
    if (result.usage.inputTokens !== undefined) this.recordReportedPromptTokens(result.usage.inputTokens, request.messages);
    return { ...result, request };
  }

  /** The window and reply reserve held to the server's own window, when smaller; false when it is not or cannot be. */
  private lowerWindow(window: number): boolean {
    let reserve: number;
    try {
      reserve = resolveReplyReserve(window, this.options.replyReserve !== undefined ? Math.min(this.options.replyReserve, Math.floor(window / 2)) : undefined);
    } catch {
      return false;
    }
    if (!this.window.lowerContextSize(window, reserve)) return false;
    this.replyReserve = reserve;
    return true;
  }

  /**
   * What a refusal as over the window teaches: the window the server runs (when it names one
   * under this one's), how far it counts above the local count (its count of the prompt, else 15%
   * more). False when the error is no such refusal. Warns once with what was learnt.
   */
  private learnFromOverflow(error: unknown, sent: readonly Message[]): boolean {
    if (!ModelResponseError.isInstance(error)) return false;
    const refusal = readContextOverflowRefusal(error.status, `${error.message}\n${error.bodyExcerpt ?? ''}`);
    if (!refusal) return false;
    const before = this.budget().contextSize;
    const lowered = refusal.window !== undefined && this.lowerWindow(refusal.window);
    const local = this.tokens.countMessages(sent);
    const ratio = refusal.promptTokens !== undefined && local > 0 ? (refusal.promptTokens / local) * 1.02 : this.calibration.ratio * 1.15;
    this.calibration.raiseTo(ratio);
    (this.options.logger ?? silentLogger).warn(
      `the model server refused the request as over its window${refusal.promptTokens !== undefined ? ` (it counted ${refusal.promptTokens} tokens, ollm ${local})` : ''}; ` +
        `${lowered ? `requests are held to the ${refusal.window} tokens it runs, not ${before}, and ` : ''}token counts are scaled x${this.calibration.ratio.toFixed(2)}; the context is fitted to that and the request sent once more`,
    );
    return true;
  }

  /**
   * Compacts now with a named provider or pipeline (`trim`, `mask,code-aware,trim`). Errors are
   * typed; on any error the context is unchanged.
   */
  async compact(providerName: string, options: CompactOptions = {}): Promise<CompactionOutcome> {
    return this.runner.compactNow(this.registry.get(providerName), options.abortSignal);
  }

  /** @deprecated Use `compact`. */
  compress(providerName: string, options: CompactOptions = {}): Promise<CompactionOutcome> {
    return this.compact(providerName, options);
  }

  /** The full context state, as a snapshot stores it. */
  state(): ContextState {
    return {
      systemPrompt: this.window.systemPrompt,
      messages: [...this.conversation.messages],
      ...(this.goals.state ? { goal: this.goals.state } : {}),
      ...(this.goals.history.length > 0 ? { goalHistory: this.goals.history } : {}),
      compactionCount: this.compactionCount,
      summaryCount: this.summaryCount,
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

  /**
   * Restores exactly the saved context: messages, goal, system prompt, provider state, compaction
   * count. A snapshot whose latest message cannot fit this window even alone (a paste that was
   * refused) is not restored, since every request would be refused after it: the context stays as
   * it was and the error says which window would take it. One merely over the window is restored;
   * the next request compacts it first.
   */
  restoreSnapshot(snapshotId: string): ContextSnapshot {
    const snapshot = this.snapshots.read(snapshotId);
    const before = this.state();
    this.restoreState(snapshot.context);
    if (!this.fitsWindow()) {
      const overflow = this.window.overflow();
      if (overflow.messageTokens !== undefined) {
        this.restoreState(before);
        // The request with the reply reserve's usual share (15%) on top.
        const needed = Math.ceil(overflow.requestTokens / 0.85) + 1;
        throw new InvalidArgumentError({
          argument: 'snapshotId',
          message:
            `Snapshot ${snapshot.id} was not restored: its latest message alone is ${overflow.messageTokens} tokens, and with the system prompt ` +
            `${overflow.requestTokens} do not fit the ${overflow.requestLimit} this window holds, so every request after it would be refused. ` +
            `The context is unchanged. Restore an earlier snapshot, or this one in a chat with a window of at least ${needed} tokens ` +
            `(ollm snapshot restore ${snapshot.id}, then ollm --session ${snapshot.sessionId} --context-size ${needed}).`,
        });
      }
    }
    this.events.emit('snapshot-restored', { snapshotId: snapshot.id });
    return snapshot;
  }

  /** Restores a state (`state()`, a snapshot's, a saved context's; one saved as `compressionCount` too). */
  restoreState(state: ContextState): void {
    this.window.systemPrompt = state.systemPrompt;
    this.conversation.restore(state.messages, state.foldedQuotes);
    if (state.goal) this.goals.restore(state.goal);
    else this.goals.clear();
    this.goals.restoreHistory(state.goalHistory ?? []);
    this.runner.count = compactionCountOf(state);
    this.runner.summaryCount = summaryCountOf(state);
    this.providerState.clear();
    for (const [key, value] of Object.entries(state.providerState ?? {})) this.providerState.set(key, value);
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
}
