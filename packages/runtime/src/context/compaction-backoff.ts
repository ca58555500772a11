import type { ContextBudget } from './context-budget.js';

/** After a compaction that could not help, the next automatic one waits until the conversation grew by this share of the trigger. */
const GROWTH_SHARE = 0.1;

/** Why automatic compaction is backing off, as the `compaction-backoff` event says it. */
export interface BackoffState {
  /** Conversation tokens the last automatic compaction left (still at or over the trigger). */
  readonly tokensAfter: number;
  readonly trigger: number;
  /** The next automatic compaction runs when the conversation holds this many tokens. */
  readonly retryAt: number;
}

/**
 * Automatic compaction stops trying every turn when it cannot bring the conversation under the
 * trigger (pinned messages alone fill the window, say): it tries again once the conversation has
 * grown by a tenth of the trigger, so the per-turn cost stays flat and each attempt has new
 * content to work on. The window rule does not back off: a request that does not fit is still
 * compacted (or refused) before it is sent.
 */
export class CompactionBackoff {
  private state: BackoffState | undefined;

  /** The back-off in force for `budget`, if any; it ends when the conversation grew past `retryAt` or shrank. */
  active(budget: ContextBudget): BackoffState | undefined {
    const state = this.state;
    if (!state) return undefined;
    if (budget.conversationTokens >= state.retryAt || budget.conversationTokens < state.tokensAfter) {
      this.state = undefined;
      return undefined;
    }
    return state;
  }

  /**
   * Records what an automatic compaction left. Returns the new back-off when it could not bring
   * the conversation under the trigger (and none was in force), so the caller says so once.
   */
  record(after: ContextBudget): BackoffState | undefined {
    if (after.conversationTokens < after.trigger) {
      this.state = undefined;
      return undefined;
    }
    const growth = Math.max(1, Math.ceil(after.trigger * GROWTH_SHARE));
    this.state = { tokensAfter: after.conversationTokens, trigger: after.trigger, retryAt: after.conversationTokens + growth };
    return this.state;
  }
}
