import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { Tokenizer } from './tokenizer.js';

/** How much a `ContentTokenCache` may hold. */
export interface ContentTokenCacheLimits {
  /** Texts kept, at most. */
  readonly maxEntries: number;
  /** Characters of the texts kept, at most (the cache holds each text as its key). */
  readonly maxCharacters: number;
  /** Texts shorter than this are counted every time, never kept. */
  readonly minLength: number;
}

/**
 * The limits of the cache each tokenizer shares: 65,536 texts and 16 Mi characters (16-32 MiB of
 * keys; the largest shipped transcript is about 0.3 M characters), texts of any length. Counting
 * even a 4-character text costs a few microseconds in gpt-tokenizer (options, a regex iterator per
 * call); a lookup costs tens of nanoseconds, so short texts are worth keeping too.
 */
export const DEFAULT_CONTENT_TOKEN_CACHE_LIMITS: ContentTokenCacheLimits = {
  maxEntries: 65_536,
  maxCharacters: 16 * 1024 * 1024,
  minLength: 1,
};

interface Generation {
  readonly counts: Map<string, number>;
  characters: number;
}

const newGeneration = (): Generation => ({ counts: new Map(), characters: 0 });

/**
 * `text` in a string of its own. A slice of a longer string (a sentence matched in a message, a
 * line) keeps that whole string alive in V8; kept as a key, it would make the character limit a
 * fiction. Concatenating flattens into a new string, and the slice of that holds only `text`.
 * (V8 copies slices under 13 characters anyway.)
 */
function ownCopy(text: string): string {
  return text.length < 13 ? text : `${text}\0`.slice(0, -1);
}

/**
 * Token counts by content: a text is tokenised once, whichever string holds it, so a conversation
 * parsed again from JSON (new objects, the same strings), a tool call's arguments seen by every
 * pass and every stage, a placeholder drafted again on the next compaction all cost a lookup.
 *
 * Bounded by entries and by characters, generationally: texts go into the young generation;
 * when it is full (half of either limit), it becomes the old one and the previous old one is
 * dropped; a text found in the old generation moves to the young one. So what is in use stays,
 * what has not been asked for over a whole generation goes, a lookup is one `Map.get`, and the
 * two generations together never exceed the limits. Keys are the cache's own copies, so the
 * character limit is what it holds (not the documents its texts were cut from).
 */
export class ContentTokenCache {
  readonly limits: ContentTokenCacheLimits;
  private young = newGeneration();
  private old = newGeneration();
  private readonly generationEntries: number;
  private readonly generationCharacters: number;

  constructor(limits: Partial<ContentTokenCacheLimits> = {}) {
    this.limits = { ...DEFAULT_CONTENT_TOKEN_CACHE_LIMITS, ...limits };
    for (const [name, value] of Object.entries(this.limits)) {
      if (!Number.isInteger(value) || value < (name === 'minLength' ? 0 : 2)) {
        throw new InvalidArgumentError({ argument: name, message: `${name} must be an integer of at least ${name === 'minLength' ? 0 : 2}, got ${value}` });
      }
    }
    this.generationEntries = Math.floor(this.limits.maxEntries / 2);
    this.generationCharacters = Math.floor(this.limits.maxCharacters / 2);
  }

  /** Texts held. */
  get size(): number {
    return this.young.counts.size + this.old.counts.size;
  }

  /** Characters of the texts held. */
  get characters(): number {
    return this.young.characters + this.old.characters;
  }

  /** The token count of `text`: from the cache, or `count(text)` (then kept, if it fits). */
  count(text: string, count: (text: string) => number): number {
    if (text.length < this.limits.minLength || text.length > this.generationCharacters) return count(text);
    const young = this.young.counts.get(text);
    if (young !== undefined) return young;
    const old = this.old.counts.get(text);
    if (old !== undefined) {
      this.old.counts.delete(text);
      this.old.characters -= text.length;
      this.keep(text, old);
      return old;
    }
    const counted = count(text);
    this.keep(text, counted);
    return counted;
  }

  /** The count held for `text`, or undefined; counts nothing. */
  peek(text: string): number | undefined {
    return this.young.counts.get(text) ?? this.old.counts.get(text);
  }

  clear(): void {
    this.young = newGeneration();
    this.old = newGeneration();
  }

  private keep(text: string, tokens: number): void {
    if (this.young.counts.size + 1 > this.generationEntries || this.young.characters + text.length > this.generationCharacters) {
      this.old = this.young;
      this.young = newGeneration();
    }
    this.young.counts.set(ownCopy(text), tokens);
    this.young.characters += text.length;
  }
}

const shared = new WeakMap<Tokenizer, ContentTokenCache>();

/**
 * The cache every `TokenCounter` of `tokenizer` uses unless given another: one per tokenizer
 * object, so one per encoding for `createTokenizer`'s shared instances, and never shared between
 * two tokenizers that might count differently.
 */
export function sharedContentTokenCache(tokenizer: Tokenizer): ContentTokenCache {
  let cache = shared.get(tokenizer);
  if (cache === undefined) {
    cache = new ContentTokenCache();
    shared.set(tokenizer, cache);
  }
  return cache;
}
