import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { Tokenizer } from './tokenizer.js';
import { ContentTokenCache, DEFAULT_CONTENT_TOKEN_CACHE_LIMITS, sharedContentTokenCache } from './content-token-cache.js';

const byLength = (text: string): number => text.length;

describe('ContentTokenCache', () => {
  it('counts a text once, whichever string object holds it', () => {
    const cache = new ContentTokenCache();
    const count = vi.fn(byLength);
    const text = 'the same content, '.repeat(5);
    expect(cache.count(text, count)).toBe(text.length);
    // A copy built afresh (as JSON.parse builds one) is another object with the same content.
    const copy = JSON.parse(JSON.stringify(text)) as string;
    expect(cache.count(copy, count)).toBe(text.length);
    expect(count).toHaveBeenCalledTimes(1);
  });

  it('stays within its entry and character limits however much is put in', () => {
    const cache = new ContentTokenCache({ maxEntries: 100, maxCharacters: 5_000 });
    for (let index = 0; index < 20_000; index++) {
      cache.count(`text number ${index} `.repeat(1 + (index % 13)), byLength);
      expect(cache.size).toBeLessThanOrEqual(100);
      expect(cache.characters).toBeLessThanOrEqual(5_000);
    }
    expect(cache.size).toBeGreaterThan(0);
    // A text longer than a generation is counted, not kept.
    cache.clear();
    expect(cache.count('x'.repeat(4_000), byLength)).toBe(4_000);
    expect(cache.size).toBe(0);
  });

  it('keeps what is in use: a text asked for again survives a generation of new ones', () => {
    const cache = new ContentTokenCache({ maxEntries: 10, maxCharacters: 1_000_000 });
    const count = vi.fn(byLength);
    const hot = 'asked for again and again';
    for (let index = 0; index < 1_000; index++) {
      cache.count(hot, count);
      cache.count(`cold text ${index}`, count);
    }
    expect(count.mock.calls.filter(([text]) => text === hot)).toHaveLength(1);
  });

  it('counts texts under its minimum length every time', () => {
    const cache = new ContentTokenCache({ minLength: 8 });
    const count = vi.fn(byLength);
    cache.count('short', count);
    cache.count('short', count);
    expect(count).toHaveBeenCalledTimes(2);
    expect(cache.size).toBe(0);
  });

  it('gives the counts of the function it caches, for any sequence of texts', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 40 }), { maxLength: 300 }), fc.integer({ min: 2, max: 20 }), (texts, maxEntries) => {
        const cache = new ContentTokenCache({ maxEntries, maxCharacters: 200 });
        const weigh = (text: string): number => text.length * 3 + (text.codePointAt(0) ?? 0);
        for (const text of [...texts, ...texts]) expect(cache.count(text, weigh)).toBe(weigh(text));
      }),
    );
  });

  it('rejects limits it cannot keep, with a typed error', () => {
    expect(() => new ContentTokenCache({ maxEntries: 0 })).toThrow(InvalidArgumentError);
    expect(() => new ContentTokenCache({ maxCharacters: Number.NaN })).toThrow(/maxCharacters/);
    expect(new ContentTokenCache().limits).toEqual(DEFAULT_CONTENT_TOKEN_CACHE_LIMITS);
  });

  it('is shared per tokenizer object, never between two tokenizers', () => {
    const tokenizer = (): Tokenizer => ({ encoding: 'o200k_base', countTokens: byLength, encode: () => [], decode: () => '' });
    const first = tokenizer();
    expect(sharedContentTokenCache(first)).toBe(sharedContentTokenCache(first));
    expect(sharedContentTokenCache(first)).not.toBe(sharedContentTokenCache(tokenizer()));
  });

  it('holds copies of its texts, not the long strings they were cut from', () => {
    // A slice keeps its whole parent alive in V8; 50 cached slices of 50 documents of 1 M characters
    // would hold 50 MB. The cache must hold only the 50 × 80 characters.
    setFlagsFromString('--expose-gc');
    const collect = runInNewContext('gc') as () => void;
    const cache = new ContentTokenCache();
    collect();
    const before = process.memoryUsage().heapUsed;
    for (let index = 0; index < 50; index++) {
      const document = `${String(index).padStart(4, '0')} ${'x'.repeat(1_000_000)}`;
      cache.count(document.slice(0, 80), byLength);
    }
    collect();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(20_000_000);
    expect(cache.size).toBe(50);
    const count = vi.fn(byLength);
    expect(cache.count(`0007 ${'x'.repeat(75)}`, count)).toBe(80);
    expect(count).not.toHaveBeenCalled();
  });
});
