import type { Message } from '../messages/message.js';
import type { MessagePart } from '../messages/message-part.js';
import { partText } from '../messages/message-helpers.js';
import type { Tokenizer } from './tokenizer.js';

/**
 * Tokens every message costs beyond its content (role and delimiters), as in OpenAI's chat
 * format accounting. Documented in docs/tokens.md.
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Extra tokens per tool call part (call id and wrapping). */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;

/**
 * Counts messages with a per-message cache: a message object is tokenised once, so counting a
 * conversation after one message was added tokenises only that message. Messages are immutable
 * values, so the cache is keyed by object identity and never goes stale.
 */
export class TokenCounter {
  readonly tokenizer: Tokenizer;
  private readonly cache = new WeakMap<Message, number>();
  // Providers replace one part of a message (a folded output, a shortened text) and keep the
  // others as the same objects: caching by part means the new message costs only the new part,
  // and a provider can ask for the count of a part the host already counted.
  private readonly partCache = new WeakMap<MessagePart, number>();

  constructor(tokenizer: Tokenizer) {
    this.tokenizer = tokenizer;
  }

  countText(text: string): number {
    return this.tokenizer.countTokens(text);
  }

  /** Tokens of `partText(part)` (without the tool-call overhead), cached by part object. */
  countPartText(part: MessagePart): number {
    let count = this.partCache.get(part);
    if (count === undefined) {
      count = this.tokenizer.countTokens(partText(part));
      this.partCache.set(part, count);
    }
    return count;
  }

  countMessage(message: Message): number {
    const cached = this.cache.get(message);
    if (cached !== undefined) return cached;
    let total = MESSAGE_OVERHEAD_TOKENS;
    if (message.name) total += this.tokenizer.countTokens(message.name);
    for (const part of message.parts) {
      total += this.countPartText(part);
      if (part.type === 'tool-call') total += TOOL_CALL_OVERHEAD_TOKENS;
    }
    this.cache.set(message, total);
    return total;
  }

  countMessages(messages: readonly Message[]): number {
    let total = 0;
    for (const message of messages) total += this.countMessage(message);
    return total;
  }
}
