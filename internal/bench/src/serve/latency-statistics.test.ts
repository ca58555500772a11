import { describe, expect, it } from 'vitest';
import { latencyStatistics, percentile } from './latency-statistics.js';

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const values = Array.from({ length: 20 }, (_, index) => 20 - index);
    expect(percentile(values, 0.95)).toBe(19);
    expect(percentile(values, 0.5)).toBe(10);
    expect(percentile(values, 1)).toBe(20);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.95)).toBeNaN();
  });

  it('refuses a share outside (0, 1]', () => {
    expect(() => percentile([1], 0)).toThrow(RangeError);
    expect(() => percentile([1], 1.5)).toThrow(/share must be in \(0, 1\]/);
  });
});

describe('latencyStatistics', () => {
  it('takes the added time of each pair, not the difference of the medians', () => {
    // Drift that hits both sides of a pair: the proxy adds 1 ms to every request.
    const pairs = [
      { directMs: 1, proxiedMs: 2 },
      { directMs: 10, proxiedMs: 11 },
      { directMs: 20, proxiedMs: 21 },
      { directMs: 2, proxiedMs: 30 },
    ];
    const statistics = latencyStatistics(pairs);
    expect(statistics).toMatchObject({ requests: 4, directMedianMs: 6, proxiedMedianMs: 16, addedMedianMs: 1, addedP95Ms: 28 });
    expect(statistics.proxiedMedianMs - statistics.directMedianMs).toBe(10);
  });
});
