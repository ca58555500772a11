import type { Message } from '../messages/message.js';
import type { MessagePart } from '../messages/message-part.js';
import { partText } from '../messages/message-helpers.js';
import { ContentTokenCache, sharedContentTokenCache } from './content-token-cache.js';
import type { Tokenizer } from './tokenizer.js';

/**
 * Tokens every message costs beyond its content (role and delimiters), as in OpenAI's chat
 * format accounting. Documented in docs/tokens.md.
 */
export const MESSAGE_OVERHEAD_TOKENS = 4;
/** Extra tokens per tool call part (call id and wrapping). */
export const TOOL_CALL_OVERHEAD_TOKENS = 3;

/** Tool-call arguments shorter than this are counted again rather than remembered. */
const SUFFIX_MINIMUM_CHARACTERS = 256;
/** Calls whose arguments one counter remembers, and the characters of their texts it holds at most. */
const SUFFIX_ENTRIES = 4096;
const SUFFIX_CHARACTERS = 8_000_000;

export interface TokenCounterOptions {
  /**
   * Counts by content that outlive this counter: by default the cache shared by every counter of
   * the same tokenizer (`sharedContentTokenCache`); a cache of the caller's own; or `false` for
   * none (every text of an object not yet seen is tokenised, as a cold start would).
   */
  readonly contentCache?: ContentTokenCache | false;
}

/**
 * Counts messages with three caches. A message object is counted once (a `WeakMap` by identity:
 * messages are immutable values, so it never goes stale), and so is a part object. Below those,
 * every text (a part's text, a name, any `countText`) is counted once per content in a bounded
 * cache shared per tokenizer: the same conversation parsed again (new objects, the same strings),
 * or counted by a new counter, costs lookups instead of tokenisation.
 */
export class TokenCounter {
  readonly tokenizer: Tokenizer;
  readonly contentCache: ContentTokenCache | undefined;
  private readonly cache = new WeakMap<Message, number>();
  // Providers replace one part of a message (a folded output, a shortened text) and keep the
  // others as the same objects: caching by part means the new message costs only the new part,
  // and a provider can ask for the count of a part the host already counted.
  private readonly partCache = new WeakMap<MessagePart, number>();
  private readonly tokenize: (text: string) => number;
  // A tool call is counted as `name arguments`; providers then count the arguments alone (to fold
  // them, to report what they removed). Each counted call's arguments point back at its text, so
  // their count comes from the call's (`countTokensAfter`) instead of a second tokenisation.
  private readonly suffixes = new Map<string, { readonly text: string; readonly start: number; readonly tokens: number }>();
  private suffixCharacters = 0;

  constructor(tokenizer: Tokenizer, options: TokenCounterOptions = {}) {
    this.tokenizer = tokenizer;
    this.contentCache = options.contentCache === false ? undefined : (options.contentCache ?? sharedContentTokenCache(tokenizer));
    this.tokenize = (text) => {
      const known = this.suffixes.get(text);
      if (known !== undefined && tokenizer.countTokensAfter) return tokenizer.countTokensAfter(known.text, known.start, known.tokens);
      return tokenizer.countTokens(text);
    };
  }

  countText(text: string): number {
    return this.contentCache ? this.contentCache.count(text, this.tokenize) : this.tokenize(text);
  }

  /**
   * Counts `text` only as far as needed to tell whether it has more than `limit` tokens: the exact
   * count when it has at most `limit` (then cached as any count), otherwise a number above `limit`.
   */
  countTextUpTo(text: string, limit: number): number {
    const cached = this.contentCache?.peek(text);
    if (cached !== undefined) return cached;
    if (!this.tokenizer.countTokensUpTo || this.suffixes.has(text)) return this.countText(text);
    const tokens = this.tokenizer.countTokensUpTo(text, limit);
    if (tokens <= limit) this.contentCache?.count(text, () => tokens);
    return tokens;
  }

  /** Tokens of `partText(part)` (without the tool-call overhead), cached by part object and by content. */
  countPartText(part: MessagePart): number {
    let count = this.partCache.get(part);
    if (count === undefined) {
      const text = partText(part);
      count = this.countText(text);
      this.partCache.set(part, count);
      if (part.type === 'tool-call') this.rememberArguments(text, part.name.length + 1, count);
    }
    return count;
  }

  private rememberArguments(text: string, start: number, tokens: number): void {
    // Short arguments cost less to count than to remember; the map is bounded (emptied when full).
    if (text.length - start < SUFFIX_MINIMUM_CHARACTERS) return;
    if (this.suffixes.size >= SUFFIX_ENTRIES || this.suffixCharacters + text.length > SUFFIX_CHARACTERS) {
      this.suffixes.clear();
      this.suffixCharacters = 0;
    }
    this.suffixes.set(text.slice(start), { text, start, tokens });
    this.suffixCharacters += text.length;
  }

  countMessage(message: Message): number {
    const cached = this.cache.get(message);
    if (cached !== undefined) return cached;
    let total = MESSAGE_OVERHEAD_TOKENS;
    if (message.name) total += this.countText(message.name);
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
