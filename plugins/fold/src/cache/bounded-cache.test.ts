import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache.js';

describe('BoundedCache', () => {
  it('keeps at most maxEntries, dropping the oldest first', () => {
    const cache = new BoundedCache<string, number>(3, 1_000);
    for (const [index, key] of ['a', 'b', 'c', 'd'].entries()) cache.set(key, index, 1);
    expect(cache.size).toBe(3);
    expect(cache.get('a')).toBeUndefined();
    expect([cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([1, 2, 3]);
  });

  it('keeps at most maxBytes, and does not store a value larger than all of it', () => {
    const cache = new BoundedCache<string, string>(100, 10);
    cache.set('a', 'x', 4);
    cache.set('b', 'y', 4);
    cache.set('c', 'z', 4);
    expect(cache.bytes).toBeLessThanOrEqual(10);
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('c')).toBe('z');
    cache.set('huge', 'w', 11);
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.get('c')).toBe('z');
  });

  it('an entry read long after it was stored is kept over entries stored since', () => {
    const cache = new BoundedCache<number, number>(8, 1_000);
    for (let key = 0; key < 8; key++) cache.set(key, key, 1);
    // Key 0 is the oldest; reading it makes it the newest.
    expect(cache.get(0)).toBe(0);
    cache.set(8, 8, 1);
    expect(cache.get(0)).toBe(0);
    expect(cache.get(1)).toBeUndefined();
  });

  it('replacing a key counts its bytes once; delete and clear free them', () => {
    const cache = new BoundedCache<string, number>(10, 100);
    cache.set('a', 1, 30);
    cache.set('a', 2, 40);
    expect(cache.bytes).toBe(40);
    expect(cache.get('a')).toBe(2);
    cache.delete('a');
    expect(cache.bytes).toBe(0);
    cache.set('b', 3, 5);
    cache.clear();
    expect([cache.size, cache.bytes, cache.get('b')]).toEqual([0, 0, undefined]);
  });
});
