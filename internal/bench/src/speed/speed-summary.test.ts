import { describe, expect, it } from 'vitest';
import type { ProcessCase } from './process-workload.js';
import { processRatioOverSum } from './speed-summary.js';

const fresh = (conversation: string, contender: string, firstCallMs: number): ProcessCase => ({
  conversation,
  tokensBefore: 1_000,
  contender,
  kind: 'fresh',
  firstCallMs,
});

describe('processRatioOverSum', () => {
  it('divides by the sum of the denominators on the same transcript, and leaves out a transcript one of them misses', () => {
    const cases = [
      fresh('a', 'pipeline', 90),
      fresh('a', 'floor', 40),
      fresh('a', 'code-parse', 20),
      fresh('b', 'pipeline', 100),
      fresh('b', 'floor', 50),
      fresh('b', 'code-parse', 30),
      fresh('c', 'pipeline', 10),
      fresh('c', 'floor', 10),
      { ...fresh('a', 'pipeline', 1), kind: 'cold' as const },
    ];
    // a: 90 / 60 = 1.5; b: 100 / 80 = 1.25; c has no code parse. The median of 1.5 and 1.25.
    expect(processRatioOverSum(cases, 'fresh', 'pipeline', ['floor', 'code-parse'])).toBeCloseTo(1.375, 10);
    expect(processRatioOverSum(cases, 'cold', 'pipeline', ['floor', 'code-parse'])).toBeUndefined();
  });
});
