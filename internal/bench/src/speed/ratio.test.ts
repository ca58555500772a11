import { describe, expect, it } from 'vitest';
import { describeTarget, meetsTarget, pairedRatio, ratio } from './ratio.js';

describe('ratio', () => {
  it('divides, and is undefined for missing, non-finite or non-positive denominators', () => {
    expect(ratio(6, 2)).toBe(3);
    expect(ratio(undefined, 2)).toBeUndefined();
    expect(ratio(2, undefined)).toBeUndefined();
    expect(ratio(2, 0)).toBeUndefined();
    expect(ratio(Number.NaN, 1)).toBeUndefined();
    expect(ratio(1, Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});

describe('pairedRatio', () => {
  it('is the median of the per-case ratios, not the ratio of the medians', () => {
    // Per case: 2, 3, 10 -> median 3. Ratio of medians would be 20 / 5 = 4.
    const pairs = [
      { numerator: 2, denominator: 1 },
      { numerator: 30, denominator: 10 },
      { numerator: 20, denominator: 2 },
    ];
    expect(pairedRatio(pairs)).toBe(3);
  });

  it('leaves out cases without both figures and is undefined when none is left', () => {
    expect(
      pairedRatio([
        { numerator: 4, denominator: 2 },
        { numerator: undefined, denominator: 1 },
      ]),
    ).toBe(2);
    expect(pairedRatio([{ numerator: 1, denominator: 0 }])).toBeUndefined();
    expect(pairedRatio([])).toBeUndefined();
  });
});

describe('meetsTarget', () => {
  it('compares at-most inclusively and below strictly', () => {
    expect(meetsTarget(3, { comparison: 'at-most', value: 3 })).toBe(true);
    expect(meetsTarget(3.01, { comparison: 'at-most', value: 3 })).toBe(false);
    expect(meetsTarget(1, { comparison: 'below', value: 1 })).toBe(false);
    expect(meetsTarget(0.99, { comparison: 'below', value: 1 })).toBe(true);
    expect(meetsTarget(undefined, { comparison: 'below', value: 1 })).toBeUndefined();
    expect(describeTarget({ comparison: 'at-most', value: 1.5 })).toBe('≤ 1.5x');
    expect(describeTarget({ comparison: 'below', value: 1 })).toBe('< 1x');
  });
});
