import { describe, expect, it } from 'vitest';
import { predictMilliseconds } from './scaling-prediction.js';

describe('predictMilliseconds', () => {
  it('is linear from a single size', () => {
    expect(predictMilliseconds([{ tokens: 10_000, ms: 5 }], 100_000)).toBeCloseTo(50);
  });

  it('takes growth faster than linear as quadratic, whatever the two sizes showed', () => {
    // 10x the tokens took 100x the time: 10x more is 100x more again.
    expect(
      predictMilliseconds(
        [
          { tokens: 1_000, ms: 1 },
          { tokens: 10_000, ms: 100 },
        ],
        100_000,
      ),
    ).toBeCloseTo(10_000);
    // 10x took 30x (exponent 1.48): still quadratic from there.
    expect(
      predictMilliseconds(
        [
          { tokens: 1_000, ms: 1 },
          { tokens: 10_000, ms: 30 },
        ],
        100_000,
      ),
    ).toBeCloseTo(3_000);
    // Cubic growth is not extrapolated beyond quadratic.
    expect(
      predictMilliseconds(
        [
          { tokens: 1_000, ms: 1 },
          { tokens: 10_000, ms: 1_000 },
        ],
        100_000,
      ),
    ).toBeCloseTo(100_000);
  });

  it('is linear for nearly linear growth, never faster, and has no answer without a usable size', () => {
    expect(
      predictMilliseconds(
        [
          { tokens: 1_000, ms: 10 },
          { tokens: 10_000, ms: 150 },
        ],
        100_000,
      ),
    ).toBeCloseTo(1_500);
    expect(
      predictMilliseconds(
        [
          { tokens: 1_000, ms: 10 },
          { tokens: 10_000, ms: 20 },
        ],
        100_000,
      ),
    ).toBeCloseTo(200);
    expect(predictMilliseconds([], 100)).toBeUndefined();
    expect(predictMilliseconds([{ tokens: 1_000, ms: 0 }], 100)).toBeUndefined();
  });
});
