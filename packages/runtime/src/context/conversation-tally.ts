import { isCheckpointMessage, type Message, type TokenCounter } from '@ollm/core';

/** Tokens of the active messages, split as the budget needs them. */
export interface ConversationTotals {
  readonly checkpointTokens: number;
  readonly conversationTokens: number;
}

/**
 * Running totals of the active context, so the per-turn check costs the same at 100 and at
 * 100,000 messages. The active context only appends to its list between compactions and replaces
 * the list when a compaction (or a removal, or a restore) changes it: the tally adds what was
 * appended since it last looked, and counts again from the start only when the list it counted is
 * no longer the one it is given.
 */
export class ConversationTally {
  private readonly tokens: TokenCounter;
  private counted: readonly Message[] | undefined;
  private countedLength = 0;
  private checkpointTokens = 0;
  private conversationTokens = 0;

  constructor(tokens: TokenCounter) {
    this.tokens = tokens;
  }

  totals(messages: readonly Message[]): ConversationTotals {
    // A different list, or a shorter one (an in-place change the tally cannot follow): recount.
    if (messages !== this.counted || messages.length < this.countedLength) {
      this.counted = messages;
      this.countedLength = 0;
      this.checkpointTokens = 0;
      this.conversationTokens = 0;
    }
    for (let index = this.countedLength; index < messages.length; index += 1) {
      const message = messages[index]!;
      const count = this.tokens.countMessage(message);
      if (isCheckpointMessage(message)) this.checkpointTokens += count;
      else this.conversationTokens += count;
    }
    this.countedLength = messages.length;
    return { checkpointTokens: this.checkpointTokens, conversationTokens: this.conversationTokens };
  }

  /** Tokens of every active message, checkpoints included (as providers count them). */
  total(messages: readonly Message[]): number {
    const { checkpointTokens, conversationTokens } = this.totals(messages);
    return checkpointTokens + conversationTokens;
  }
}
