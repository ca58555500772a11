import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CALIBRATION_CEILING, CALIBRATION_FLOOR, TokenCalibration } from './token-calibration.js';

describe('TokenCalibration', () => {
  it('learns a plausible factor from the first reading and scales estimates by it', () => {
    const calibration = new TokenCalibration();
    expect(calibration.record(1_000, 1_240)).toBe('used');
    expect(calibration.ratio).toBeCloseTo(1.24);
    expect(calibration.apply(100)).toBe(124);
  });

  it('never goes below the exact local count, however low the server reports', () => {
    const calibration = new TokenCalibration();
    calibration.record(1_000, 600);
    expect(calibration.ratio).toBe(1);
    expect(calibration.apply(1_000)).toBe(1_000);
  });

  it('ignores a reading that disagrees wildly (10x under or over) and keeps the learned factor', () => {
    const calibration = new TokenCalibration();
    calibration.record(1_000, 1_200);
    expect(calibration.record(1_000, 100)).toBe('ignored');
    expect(calibration.record(1_000, 10_000)).toBe('ignored');
    expect(calibration.ratio).toBeCloseTo(1.2);
    expect(calibration.ignoredCount).toBe(2);
    expect(calibration.sampleCount).toBe(1);
  });

  it('smooths: one odd reading moves the factor only part of the way', () => {
    const calibration = new TokenCalibration();
    for (let index = 0; index < 5; index += 1) calibration.record(1_000, 1_200);
    calibration.record(1_000, 2_000);
    expect(calibration.ratio).toBeGreaterThan(1.3);
    expect(calibration.ratio).toBeLessThan(1.5);
    // And it comes back as readings return to normal.
    for (let index = 0; index < 10; index += 1) calibration.record(1_000, 1_200);
    expect(calibration.ratio).toBeLessThan(1.22);
  });

  it('stays within [floor, ceiling] for any readings, and never scales an estimate down', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 1, max: 200_000 }), fc.double({ min: 0.001, max: 50, noNaN: true })), { maxLength: 40 }),
        fc.integer({ min: 0, max: 100_000 }),
        (readings, estimate) => {
          const calibration = new TokenCalibration();
          for (const [tokens, factor] of readings) calibration.record(tokens, Math.max(1, Math.round(tokens * factor)));
          expect(calibration.ratio).toBeGreaterThanOrEqual(CALIBRATION_FLOOR);
          expect(calibration.ratio).toBeLessThanOrEqual(CALIBRATION_CEILING);
          expect(calibration.apply(estimate)).toBeGreaterThanOrEqual(estimate);
        },
      ),
    );
  });

  it('treats zero, negative and non-finite readings as invalid', () => {
    const calibration = new TokenCalibration();
    expect(calibration.record(0, 10)).toBe('invalid');
    expect(calibration.record(10, 0)).toBe('invalid');
    expect(calibration.record(10, Number.POSITIVE_INFINITY)).toBe('invalid');
    expect(calibration.sampleCount).toBe(0);
  });
});
