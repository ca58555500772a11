import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '@ollm/core';
import { CodeAwareCache, stringBytes, uncachedCodeAware } from './code-aware-cache.js';

/** The same text as a new string object, as a fresh JSON parse gives it. */
function copyOf(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

describe('CodeAwareCache', () => {
  it('finds a result by equal content, whatever string object holds it, and by kind', () => {
    const cache = new CodeAwareCache();
    const content = ['def f():', '    return 1'].join('\n');
    cache.store(content, 'views', { views: 1 }, 10);
    expect(cache.lookup(copyOf(content), 'views')).toEqual({ views: 1 });
    expect(cache.lookup(content, 'plan')).toBeUndefined();
    expect(cache.lookup(`${content} `, 'views')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 1, hits: 1, misses: 2 });
  });

  it('derives once per content', () => {
    const cache = new CodeAwareCache();
    let derivations = 0;
    const derive = (): number => ++derivations;
    expect(cache.derived('a', 'count', derive, () => 8)).toBe(1);
    expect(cache.derived(copyOf('a'), 'count', derive, () => 8)).toBe(1);
    expect(derivations).toBe(1);
  });

  it('keeps at most maxEntries contents, dropping the oldest first', () => {
    const cache = new CodeAwareCache({ maxEntries: 3 });
    for (const content of ['a', 'b', 'c', 'd', 'e']) cache.store(content, 'k', content, 8);
    expect(cache.stats().entries).toBe(3);
    expect(cache.lookup('a', 'k')).toBeUndefined();
    expect(cache.lookup('b', 'k')).toBeUndefined();
    expect(['c', 'd', 'e'].map((content) => cache.lookup(content, 'k'))).toEqual(['c', 'd', 'e']);
  });

  it('gives a content used since it was stored a second chance', () => {
    const cache = new CodeAwareCache({ maxEntries: 3 });
    for (const content of ['a', 'b', 'c']) cache.store(content, 'k', content, 8);
    cache.lookup('a', 'k');
    cache.store('d', 'k', 'd', 8);
    expect(cache.lookup('a', 'k')).toBe('a');
    expect(cache.lookup('b', 'k')).toBeUndefined();
  });

  it('keeps its estimated bytes under maxBytes, the content itself counted', () => {
    const maxBytes = 4_000;
    const cache = new CodeAwareCache({ maxBytes });
    for (let index = 0; index < 50; index++) {
      cache.store(`content ${index} `.repeat(20), 'plan', index, 100);
      expect(cache.stats().bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(cache.stats().entries).toBeGreaterThan(0);
    expect(cache.stats().entries).toBeLessThan(50);
    // One result larger than the whole budget is returned but not kept.
    const huge = 'x'.repeat(maxBytes);
    expect(cache.store(huge, 'plan', 'kept?', stringBytes(huge))).toBe('kept?');
    expect(cache.lookup(huge, 'plan')).toBeUndefined();
    expect(cache.stats().bytes).toBeLessThanOrEqual(maxBytes);
  });

  it('keeps nothing with maxEntries 0, and still returns what it derives', () => {
    const cache = uncachedCodeAware();
    let derivations = 0;
    expect(
      cache.derived(
        'a',
        'k',
        () => ++derivations,
        () => 8,
      ),
    ).toBe(1);
    expect(
      cache.derived(
        'a',
        'k',
        () => ++derivations,
        () => 8,
      ),
    ).toBe(2);
    const part = { type: 'text' };
    expect(cache.textOf(part, 'text', () => `t${++derivations}`)).toBe('t3');
    expect(cache.textOf(part, 'text', () => `t${++derivations}`)).toBe('t4');
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('remembers a string derived from an object for that object only', () => {
    const cache = new CodeAwareCache();
    const part = { input: { command: 'ls' } };
    const first = cache.textOf(part, 'input', () => JSON.stringify(part.input));
    expect(cache.textOf(part, 'input', () => 'derived again')).toBe(first);
    expect(cache.textOf({ ...part }, 'input', () => 'another object')).toBe('another object');
  });

  it('forgets everything on clear', () => {
    const cache = new CodeAwareCache();
    cache.store('a', 'k', 1, 8);
    cache.clear();
    expect(cache.lookup('a', 'k')).toBeUndefined();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('rejects limits that are not whole numbers >= 0', () => {
    expect(() => new CodeAwareCache({ maxEntries: -1 })).toThrow(InvalidArgumentError);
    expect(() => new CodeAwareCache({ maxBytes: 1.5 })).toThrow(/maxBytes must be a whole number/);
  });
});
