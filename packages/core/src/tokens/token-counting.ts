import type { Message } from '../messages/message.js';
import type { MessagePart } from '../messages/message-part.js';
import type { Tokenizer } from './tokenizer.js';

/**
 * What a provider counts with: exact token counts of texts, parts and messages, and the
 * tokenizer itself (for cutting text to a budget). Core's `TokenCounter` implements it with
 * per-message, per-part and per-content caches; a host may pass any implementation.
 */
export interface TokenCounting {
  readonly tokenizer: Tokenizer;
  countText(text: string): number;
  /**
   * The exact count of `text` when it has at most `limit` tokens, otherwise any number above
   * `limit` (the text is counted only as far as needed). Optional: `countTextUpTo` in core falls
   * back to `countText`.
   */
  countTextUpTo?(text: string, limit: number): number;
  /** Tokens of a part's text (without the tool-call overhead). */
  countPartText(part: MessagePart): number;
  /** Tokens of a message with its overhead (role, delimiters, tool-call wrapping). */
  countMessage(message: Message): number;
  countMessages(messages: readonly Message[]): number;
}

/** `tokens.countTextUpTo(text, limit)` where the counter has it, else its exact `countText`. */
export function countTextUpTo(tokens: TokenCounting, text: string, limit: number): number {
  return tokens.countTextUpTo ? tokens.countTextUpTo(text, limit) : tokens.countText(text);
}

/**
 * True when `text` cannot have more than `limit` tokens, known without counting: every token is
 * at least one byte of the text's UTF-8, so a text of at most `limit` bytes has at most `limit`
 * tokens. (Not characters: one character can be three tokens, `ꙮ` in o200k.) False says nothing.
 */
export function cannotExceedTokens(text: string, limit: number): boolean {
  // A UTF-16 unit is at most three UTF-8 bytes: most short texts are decided without measuring.
  return text.length * 3 <= limit || (text.length <= limit && Buffer.byteLength(text, 'utf8') <= limit);
}
