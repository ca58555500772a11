import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatInteger } from './format-integer.js';

const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

describe('formatInteger', () => {
  it('groups thousands with commas', () => {
    expect(formatInteger(0)).toBe('0');
    expect(formatInteger(999)).toBe('999');
    expect(formatInteger(1000)).toBe('1,000');
    expect(formatInteger(17_837)).toBe('17,837');
    expect(formatInteger(-1_234_567)).toBe('-1,234,567');
  });

  it('rounds halves away from zero and writes what is not finite as Intl does', () => {
    expect(formatInteger(2.5)).toBe('3');
    expect(formatInteger(-2.5)).toBe('-3');
    expect(formatInteger(-0.4)).toBe('-0');
    expect(formatInteger(Number.POSITIVE_INFINITY)).toBe('∞');
    expect(formatInteger(Number.NaN)).toBe('NaN');
  });

  it('writes every number as Intl.NumberFormat("en-US", { maximumFractionDigits: 0 }) does', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: -(2 ** 53), max: 2 ** 53 }),
          fc.double(),
          fc.integer().map((value) => value + 0.5),
        ),
        (value) => {
          expect(formatInteger(value)).toBe(intl.format(value));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('writes numbers past 1e21 with their shortest digits, as Intl does', () => {
    for (const value of [1e21, 1.5e22, 1e23, 123456789e20, Number.MAX_VALUE]) expect(formatInteger(value)).toBe(intl.format(value));
  });
});
