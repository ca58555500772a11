import { type CompactionResult, type Message, type TokenCounting, turnOf } from '@ollm/core';
import { quoteUserMessage, type FoldedUserQuote } from './folded-user-quotes.js';

/**
 * The conversation a `ContextManager` sends: the active messages (what compaction changes), the
 * user messages still waiting for their reply (never folded), and the quotes of user messages
 * folded out (kept in the system message). The full record lives in the session history.
 */
export class ActiveContext {
  private list: Message[] = [];
  private quotes: FoldedUserQuote[] = [];
  private waiting = new Set<string>();

  get messages(): readonly Message[] {
    return this.list;
  }

  get foldedQuotes(): readonly FoldedUserQuote[] {
    return this.quotes;
  }

  /** User messages added since the last assistant message. */
  get pendingMessageIds(): ReadonlySet<string> {
    return this.waiting;
  }

  add(message: Message): void {
    this.list.push(message);
    if (message.role === 'user') this.waiting.add(message.id);
    else if (message.role === 'assistant') this.waiting.clear();
  }

  /** Takes a message out; false when it is not active. */
  remove(messageId: string): boolean {
    const index = this.list.findIndex((message) => message.id === messageId);
    if (index === -1) return false;
    this.list = [...this.list.slice(0, index), ...this.list.slice(index + 1)];
    this.waiting.delete(messageId);
    return true;
  }

  /** Replaces the first `inputLength` messages by a stage's output; messages added meanwhile follow it. */
  replacePrefix(output: readonly Message[], inputLength: number): void {
    this.list = [...output, ...this.list.slice(inputLength)];
  }

  /**
   * Keeps every user message a stage folded out of `input` as a quote. The first quote is kept
   * longest: the task's, usually. The window guard folds the first user message only when nothing
   * else is left, so later messages may have been folded before it: it goes in front of their
   * quotes when it is older than all of them (by timestamp).
   */
  keepFoldedAsQuotes(input: readonly Message[], result: CompactionResult, tokens: TokenCounting): void {
    const first = input.find((message) => turnOf(message) === 'user');
    for (const { messageId } of result.folded ?? []) {
      const message = input.find((candidate) => candidate.id === messageId);
      if (!message || this.quotes.some((quote) => quote.messageId === messageId)) continue;
      const oldest =
        message === first &&
        message.timestamp !== undefined &&
        this.quotes.length > 0 &&
        this.quotes.every((quote) => quote.timestamp !== undefined && message.timestamp! < quote.timestamp);
      if (oldest) this.quotes.unshift(quoteUserMessage(message, 0, tokens));
      else this.quotes.push(quoteUserMessage(message, this.quotes.length, tokens));
    }
  }

  /** Restores saved messages and quotes; the waiting messages are the user messages after the last assistant message. */
  restore(messages: readonly Message[], quotes: readonly FoldedUserQuote[] = []): void {
    this.list = [...messages];
    this.quotes = [...quotes];
    const lastAssistant = this.list.findLastIndex((message) => message.role === 'assistant');
    this.waiting = new Set(this.list.filter((message, index) => index > lastAssistant && message.role === 'user').map((message) => message.id));
  }
}
