import { InvalidArgumentError } from '@ollm/core';

/** How much a `CodeAwareCache` may hold: distinct contents, and estimated bytes of them and their results. */
export interface CodeAwareCacheLimits {
  /** Distinct contents (tool outputs, texts, commands, code views) remembered. Default 20,000. */
  readonly maxEntries?: number;
  /** Estimated bytes of those contents and of what was derived from them. Default 64 MiB. */
  readonly maxBytes?: number;
}

export const DEFAULT_CACHE_ENTRIES = 20_000;
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;

/** Estimated bytes of a string held by the cache: two per UTF-16 unit and a header. */
export function stringBytes(text: string): number {
  return 2 * text.length + 32;
}

/** Bytes estimated for an entry before any result is added: the content held as its key. */
const ENTRY_OVERHEAD_BYTES = 96;

interface Entry {
  readonly results: Map<string, unknown>;
  bytes: number;
  /** Used since it last came up for eviction: it gets a second chance. */
  used: boolean;
}

/** Counters of one cache, for tests and benchmarks. */
export interface CodeAwareCacheStats {
  readonly entries: number;
  readonly bytes: number;
  readonly hits: number;
  readonly misses: number;
}

function checkedLimit(name: keyof CodeAwareCacheLimits, value: number | undefined, fallback: number): number {
  const limit = value ?? fallback;
  if (!Number.isInteger(limit) || limit < 0) {
    throw new InvalidArgumentError({ argument: name, message: `code-aware cache ${name} must be a whole number >= 0, got ${JSON.stringify(value)}` });
  }
  return limit;
}

/**
 * What code-aware derived from each content it saw — the views found in a tool output, text or
 * command, the lines other messages cite, a view's fold plan (its tree-sitter parse), a part's
 * sha256, a folded part's text — kept across compactions, so that compacting the same
 * conversation again (the same objects, or a fresh parse of the same JSON) or after one more turn
 * derives only what is new.
 *
 * Results are keyed by the content itself (a `Map` hashes it; equal strings find the same entry,
 * whatever object holds them) and by what was derived (`kind`): every result is a pure function
 * of its key, so a compaction gives the same output with or without the cache. Least recently
 * used contents are dropped first, once there are more than `maxEntries` of them or their
 * estimated bytes pass `maxBytes` (approximately: a content used since it was last passed over
 * gets a second chance); `maxEntries: 0` keeps nothing.
 */
export class CodeAwareCache {
  readonly maxEntries: number;
  readonly maxBytes: number;
  private readonly entries = new Map<string, Entry>();
  /** Strings derived from message parts (a tool call's text), for as long as the part lives. */
  private objects = new WeakMap<object, Map<string, string>>();
  private totalBytes = 0;
  private hits = 0;
  private misses = 0;

  constructor(limits: CodeAwareCacheLimits = {}) {
    this.maxEntries = checkedLimit('maxEntries', limits.maxEntries, DEFAULT_CACHE_ENTRIES);
    this.maxBytes = checkedLimit('maxBytes', limits.maxBytes, DEFAULT_CACHE_BYTES);
  }

  /** The result of `kind` for `content`, when remembered; marks the content as recently used. */
  lookup<T>(content: string, kind: string): T | undefined {
    const entry = this.entries.get(content);
    const result = entry?.results.get(kind) as T | undefined;
    if (result === undefined) {
      this.misses++;
      return undefined;
    }
    this.hits++;
    entry!.used = true;
    return result;
  }

  /** Remembers `result` (never undefined) of `kind` for `content`; `bytes` is its estimated size. */
  store<T>(content: string, kind: string, result: T, bytes: number): T {
    if (this.maxEntries === 0) return result;
    let entry = this.entries.get(content);
    if (entry) {
      entry.used = true;
    } else {
      entry = { results: new Map(), bytes: stringBytes(content) + ENTRY_OVERHEAD_BYTES, used: false };
      this.totalBytes += entry.bytes;
      this.entries.set(content, entry);
    }
    if (!entry.results.has(kind)) {
      entry.results.set(kind, result);
      entry.bytes += bytes;
      this.totalBytes += bytes;
    }
    this.evict();
    return result;
  }

  /** The remembered result of `kind` for `content`, or `derive()`'s, remembered. */
  derived<T>(content: string, kind: string, derive: () => T, bytesOf: (result: T) => number): T {
    const known = this.lookup<T>(content, kind);
    if (known !== undefined) return known;
    const result = derive();
    return this.store(content, kind, result, bytesOf(result));
  }

  /**
   * A string derived from an immutable object (a message part), remembered for the object's
   * lifetime: asking again for the same object gives the same string, whose hash the engine
   * keeps, so looking its results up costs nothing more (held weakly: no bound needed).
   */
  textOf(object: object, kind: string, derive: () => string): string {
    if (this.maxEntries === 0) return derive();
    let texts = this.objects.get(object);
    if (!texts) {
      texts = new Map();
      this.objects.set(object, texts);
    }
    let text = texts.get(kind);
    if (text === undefined) {
      text = derive();
      texts.set(kind, text);
    }
    return text;
  }

  /**
   * Drops contents until within the limits, oldest first; one used since it came up last time is
   * moved to the back instead, once (the "second chance" approximation of least recently used:
   * a hit only sets a flag, and the order changes only here).
   */
  private evict(): void {
    while (this.entries.size > this.maxEntries || (this.totalBytes > this.maxBytes && this.entries.size > 0)) {
      const [oldest, entry] = this.entries.entries().next().value as [string, Entry];
      this.entries.delete(oldest);
      if (entry.used && this.entries.size > 0) {
        entry.used = false;
        this.entries.set(oldest, entry);
      } else {
        this.totalBytes -= entry.bytes;
      }
    }
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
    this.objects = new WeakMap();
    this.totalBytes = 0;
  }

  stats(): CodeAwareCacheStats {
    return { entries: this.entries.size, bytes: this.totalBytes, hits: this.hits, misses: this.misses };
  }
}

/** The cache every code-aware provider shares unless given its own (`cache` option). */
export const sharedCodeAwareCache = new CodeAwareCache();

/** A cache that keeps nothing: every compaction derives everything again. */
export function uncachedCodeAware(): CodeAwareCache {
  return new CodeAwareCache({ maxEntries: 0 });
}
