import { MESSAGE_OVERHEAD_TOKENS, type Message, type TokenCounter } from '@ollm/core';
import { ContextOverflowError } from '../errors/context-overflow-error.js';
import type { GoalManager } from '../goals/goal-manager.js';
import type { ActiveContext } from './active-context.js';
import { computeBudget, type ContextBudget } from './context-budget.js';
import { ConversationTally } from './conversation-tally.js';
import { renderFoldedQuotes } from './folded-user-quotes.js';
import type { TokenCalibration } from './token-calibration.js';

/** Share of the request limit the folded user quotes may take in the system message. */
const FOLDED_QUOTES_SHARE = 0.1;

export interface ContextWindowOptions {
  readonly contextSize: number;
  readonly replyReserve: number;
  /** Compaction starts when the conversation reaches threshold x available. */
  readonly threshold: number;
  /** A compaction aims for this share of what the request limit leaves after the system message. */
  readonly targetRatio: number;
  readonly tokens: TokenCounter;
  readonly calibration: TokenCalibration;
  readonly conversation: ActiveContext;
  readonly goals: GoalManager;
  readonly systemPrompt: string;
}

/**
 * What a request holds and what it may hold: the system message (prompt, goal block, folded
 * quotes), the budget, and the sizes derived from it (the trigger, the compaction target, where
 * the window guard cuts). It measures; the `ContextManager` acts on what it says.
 */
export class ContextWindow {
  systemPrompt: string;
  private readonly options: ContextWindowOptions;
  private readonly tally: ConversationTally;
  /** The last system message built, and what it was built from: the same inputs give the same object (counted once). */
  private system: { key: string; message: Message | undefined } | undefined;

  /** The window requests are held to: the configured one, or less once the server said it runs less. */
  private contextSize: number;
  private replyReserve: number;

  constructor(options: ContextWindowOptions) {
    this.options = options;
    this.contextSize = options.contextSize;
    this.replyReserve = options.replyReserve;
    this.systemPrompt = options.systemPrompt;
    this.tally = new ConversationTally(options.tokens);
  }

  /**
   * The system message: the system prompt, the goal block and the quotes of user messages folded
   * out of the conversation; none of it is ever compacted.
   */
  systemMessage(): Message | undefined {
    const { conversation, goals, tokens } = this.options;
    const base = [this.systemPrompt, goals.render()].filter((part) => part.length > 0).join('\n\n');
    const quotes = conversation.foldedQuotes.length > 0 ? renderFoldedQuotes(conversation.foldedQuotes, this.quotesBudget(base), tokens) : '';
    const text = [base, quotes].filter((part) => part.length > 0).join('\n\n');
    if (this.system?.key === text) return this.system.message;
    const message: Message | undefined = text.length === 0 ? undefined : { id: 'ollm-system', role: 'system', parts: [{ type: 'text', text }], pinned: true };
    this.system = { key: text, message };
    return message;
  }

  /** What to send to the model now: the system message, then the active context. */
  messagesForModel(): Message[] {
    const system = this.systemMessage();
    const { messages } = this.options.conversation;
    return system ? [system, ...messages] : [...messages];
  }

  budget(): ContextBudget {
    const { calibration, tokens } = this.options;
    const system = this.systemMessage();
    const { checkpointTokens, conversationTokens } = this.tally.totals(this.options.conversation.messages);
    return computeBudget({
      contextSize: this.contextSize,
      replyReserve: this.replyReserve,
      systemTokens: calibration.apply(system ? tokens.countMessage(system) : 0),
      checkpointTokens: calibration.apply(checkpointTokens),
      conversationTokens: calibration.apply(conversationTokens),
      threshold: this.options.threshold,
    });
  }

  /** At the trigger, or the request does not fit: time to compact. */
  shouldCompact(): boolean {
    const budget = this.budget();
    return budget.conversationTokens >= budget.trigger || budget.totalTokens > budget.requestLimit;
  }

  /** True when the request `messagesForModel()` would make fits the window less the reply reserve. */
  fits(): boolean {
    const budget = this.budget();
    return budget.totalTokens <= budget.requestLimit;
  }

  /**
   * The size a compaction aims for, in uncalibrated tokens as providers count them: targetRatio
   * of what the request limit leaves after the system message.
   */
  targetLimit(): number {
    return this.shareOfRoom(this.options.targetRatio);
  }

  /**
   * Where the window guard cuts to, in uncalibrated tokens: the trigger (threshold x what the
   * request limit leaves after the system message), so it drops no more than it must and the next
   * turn does not compact again at once.
   */
  guardLimit(): number {
    return this.shareOfRoom(this.options.threshold);
  }

  /** Still over the compaction target (or the trigger): another stage should run. */
  overTarget(): boolean {
    return this.tally.total(this.options.conversation.messages) > this.targetLimit() || this.shouldCompact();
  }

  /**
   * Why the request cannot be sent: by how much it is over, and the latest message when that
   * alone is too large for the window.
   */
  overflow(): ContextOverflowError {
    const budget = this.budget();
    const pending = this.options.conversation.messages.at(-1);
    const pendingTokens = pending && pending.role === 'user' ? this.options.calibration.apply(this.options.tokens.countMessage(pending)) : undefined;
    const alone = pending && pendingTokens !== undefined && pendingTokens + budget.systemTokens > budget.requestLimit;
    return new ContextOverflowError({
      requestTokens: budget.totalTokens,
      requestLimit: budget.requestLimit,
      contextSize: budget.contextSize,
      replyReserve: budget.replyReserve,
      ...(alone ? { messageId: pending.id, messageTokens: pendingTokens } : {}),
    });
  }

  /**
   * Holds requests to a smaller window than configured, with the reply reserve that goes with it:
   * the window the model server said it runs when it refused a request as over it. Never raises it.
   */
  lowerContextSize(tokens: number, replyReserve: number): boolean {
    if (!(tokens < this.contextSize) || replyReserve * 2 > tokens) return false;
    this.contextSize = Math.floor(tokens);
    this.replyReserve = replyReserve;
    return true;
  }

  /** `share` of what the request limit leaves after the system message, in uncalibrated tokens; at least 1. */
  private shareOfRoom(share: number): number {
    const system = this.systemMessage();
    const rawRequestLimit = Math.floor(this.budget().requestLimit / this.options.calibration.ratio);
    const rawSystem = system ? this.options.tokens.countMessage(system) : 0;
    return Math.max(1, Math.floor((rawRequestLimit - rawSystem) * share));
  }

  /**
   * Room for the folded quotes: their share of the request limit, and never more than the request
   * leaves (in uncalibrated tokens), so quotes of old messages cannot push the pending one out.
   */
  private quotesBudget(systemText: string): number {
    const { calibration, tokens } = this.options;
    const { contextSize, replyReserve } = this;
    const rawLimit = Math.floor((contextSize - replyReserve) / calibration.ratio);
    const room = rawLimit - tokens.countText(systemText) - MESSAGE_OVERHEAD_TOKENS - this.tally.total(this.options.conversation.messages);
    return Math.max(0, Math.min(Math.floor(rawLimit * FOLDED_QUOTES_SHARE), room));
  }
}
