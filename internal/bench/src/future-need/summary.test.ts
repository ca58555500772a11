import { describe, expect, it } from 'vitest';
import { monotoneBreaks, summarizeFutureNeed } from './summary.js';
import type { FutureNeedCase, FutureNeedResult } from './workload.js';

/** A case of strategy `s` on cut `conversation`@0.5 at `budget`, `tokensAfter` long, retaining `retained` of 4 C probes. */
function entry(conversation: string, budget: number, tokensAfter: number, retained = 0): FutureNeedCase {
  const none = { available: 0, retained: 0 };
  return {
    conversation,
    kind: 'swe-agent',
    fraction: 0.5,
    strategy: 's',
    family: 'baseline',
    budget,
    prefixTokens: 1000,
    limit: Math.floor(1000 * budget),
    tokensAfter,
    underBudget: tokensAfter <= 1000 * budget,
    taskKept: true,
    valid: true,
    needs: 0,
    retained: 0,
    lostByKind: {},
    lostByPlace: {},
    lostExamples: [],
    probes: { A: none, B: none, C: { available: 4, retained }, D: none },
    lostProbeExamples: { B: [], C: [], D: [] },
  };
}

describe('monotone breaks', () => {
  it('count the cuts where a tighter budget gave a larger output than the next looser one, once per cut', () => {
    const cases = [
      // Shrinks as asked, or stays the same: no break.
      ...[entry('a', 0.5, 500), entry('a', 0.25, 250), entry('a', 0.1, 250)],
      // 10% larger than 25%.
      ...[entry('b', 0.5, 500), entry('b', 0.25, 200), entry('b', 0.1, 201)],
      // 25% larger than 50%, and 10% larger than 25%: one cut.
      ...[entry('c', 0.1, 700), entry('c', 0.25, 600), entry('c', 0.5, 500)],
    ];
    expect(monotoneBreaks(cases)).toEqual({ cuts: 3, breaks: 2 });
    expect(monotoneBreaks(cases.filter((item) => item.conversation === 'a'))).toEqual({ cuts: 1, breaks: 0 });
  });

  it('are in the summary, beside pooled and median retention of each probe kind', () => {
    const cases = [entry('a', 0.5, 500, 4), entry('a', 0.25, 600, 1), entry('b', 0.5, 500, 2), entry('b', 0.25, 200, 0)];
    const result: FutureNeedResult = {
      cuts: [0.5],
      budgets: [0.5, 0.25],
      strategies: [{ name: 's', family: 'baseline' }],
      cutRecords: ['a', 'b'].map((conversation) => ({
        conversation,
        kind: 'swe-agent' as const,
        fraction: 0.5,
        stepsKept: 1,
        stepsTotal: 2,
        prefixMessages: 3,
        prefixTokens: 1000,
        needs: 0,
        needsByKind: {},
        needsByPlace: {},
        probes: { B: 0, C: 4, D: 0 },
        probeExamples: { B: [], C: [], D: [] },
      })),
      cases,
    };
    const [summary] = summarizeFutureNeed(result);
    expect(summary!.monotoneBreaks).toBe(1);
    expect(summary!.monotoneCuts).toBe(2);
    expect(summary!.byBudget[0]!.probes.C).toEqual({ available: 8, retained: 6, pooledRetention: 0.75, medianRetention: 0.75 });
    expect(summary!.byBudget[1]!.probes.C).toEqual({ available: 8, retained: 1, pooledRetention: 0.125, medianRetention: 0.125 });
    // No B probe at any cut: no share to show.
    expect(summary!.byBudget[1]!.probes.B).toEqual({ available: 0, retained: 0 });
  });
});
