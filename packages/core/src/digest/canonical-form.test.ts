import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './canonical-form.js';

/** The recursive form canonicalJson had until it was made iterative: every output must stay the same. */
function recursiveCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return value === undefined ? 'null' : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => recursiveCanonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${recursiveCanonicalJson(member)}`).join(',')}}`;
}

describe('canonicalJson', () => {
  it('writes what the recursive form wrote, for any JSON-like value', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withSparseArray: true, withObjectString: false, withBigInt: false }), (value) => {
        expect(canonicalJson(value)).toBe(recursiveCanonicalJson(value));
      }),
      { numRuns: 500 },
    );
    expect(canonicalJson(JSON.parse('{"__proto__": {"b": [1, {"a": null}]}, "constructor": 1}'))).toBe('{"__proto__":{"b":[1,{"a":null}]},"constructor":1}');
  });

  it('writes a value nested 100,000 deep (the recursive form overflowed the call stack)', () => {
    const depth = 100_000;
    const text = '{"a":['.repeat(depth) + '1' + ']}'.repeat(depth);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });
});
