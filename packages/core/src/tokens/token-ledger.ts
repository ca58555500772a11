import type { Message } from '../messages/message.js';
import type { TokenCounting } from './token-counting.js';

/**
 * A running token total of a growing conversation: `append` costs one message's count, whatever
 * the length of the conversation, and `total` is O(1).
 */
export class TokenLedger {
  private readonly counter: TokenCounting;
  private runningTotal = 0;
  private size = 0;

  constructor(counter: TokenCounting, messages: readonly Message[] = []) {
    this.counter = counter;
    this.reset(messages);
  }

  get total(): number {
    return this.runningTotal;
  }

  get messageCount(): number {
    return this.size;
  }

  append(message: Message): number {
    const tokens = this.counter.countMessage(message);
    this.runningTotal += tokens;
    this.size += 1;
    return tokens;
  }

  /** Replaces the conversation (after a compaction); cached messages cost nothing to recount. */
  reset(messages: readonly Message[]): void {
    this.runningTotal = this.counter.countMessages(messages);
    this.size = messages.length;
  }
}
