import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson } from './same-json.js';

describe('sameJson', () => {
  it('says what comparing the two JSON texts says', () => {
    const value = fc.anything({
      maxDepth: 3,
      withNullPrototype: true,
      withDate: true,
      withSparseArray: true,
      withBigInt: false,
      withMap: false,
      withSet: false,
    });
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
        expect(sameJson(a, structuredClone(a))).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it('tells apart what only the order of fields, a changed character or a Date tells apart; not an undefined field', () => {
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameJson({ a: 'x', b: undefined }, { a: 'x' })).toBe(true);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson([Number.POSITIVE_INFINITY, null], [null, Number.NaN])).toBe(true);
    expect(sameJson({ n: Number.NEGATIVE_INFINITY }, { n: null })).toBe(true);
    expect(sameJson(-0, 0)).toBe(true);
    expect(sameJson({ text: 'same' }, { text: 'samE' })).toBe(false);
    expect(sameJson({ at: new Date(1) }, { at: new Date(2) })).toBe(false);
    expect(sameJson({ n: Number.NaN }, { n: Number.POSITIVE_INFINITY })).toBe(true);
    expect(sameJson({ n: 0 }, { n: -0 })).toBe(true);
    // An invalid Date is written as null.
    expect(sameJson(null, new Date(Number.NaN))).toBe(true);
    expect(sameJson({ at: new Date(Number.NaN) }, { at: null })).toBe(true);
    expect(sameJson([new Date(Number.NaN)], [null])).toBe(true);
    expect(sameJson('x', new Date(1))).toBe(false);
  });
});
