import { describe, expect, it } from 'vitest';
import { pairedDifference, statisticsByKind, stepStatistics } from './step-statistics.js';
import { StepTimeline, type StepSample } from './step-timeline.js';

const sample = (step: number, modelCallMs: number, kind: StepSample['kind'] = 'fits', middlewareMs: number | undefined = 1): StepSample => ({
  step,
  kind,
  stepMs: modelCallMs + 1,
  modelCallMs,
  middlewareMs,
});

describe('StepTimeline', () => {
  it('keeps the answered calls as steps, with the kind the middleware reported, and names the call that got no answer', () => {
    const timeline = new StepTimeline(true);
    timeline.start();
    timeline.end();
    timeline.start().middlewareMs = 2;
    timeline.mark('compacted');
    timeline.end();
    timeline.start();
    const { samples, unansweredStep } = timeline.finish();
    expect(samples.map((entry) => [entry.step, entry.kind, entry.middlewareMs])).toEqual([
      [1, 'fits', 0],
      [2, 'compacted', 2],
    ]);
    for (const entry of samples) expect(entry.stepMs).toBeGreaterThanOrEqual(entry.modelCallMs);
    expect(unansweredStep).toBe(3);
  });

  it('has no middleware time and the kind plain without a middleware', () => {
    const timeline = new StepTimeline(false);
    timeline.start();
    timeline.end();
    expect(timeline.finish()).toMatchObject({ samples: [{ step: 1, kind: 'plain', middlewareMs: undefined }], unansweredStep: undefined });
  });
});

describe('step statistics', () => {
  it('splits by kind in a fixed order and leaves the middleware figures out of plain steps', () => {
    const samples = [sample(1, 5, 'compacted', 4), sample(2, 2, 'fits'), sample(3, 3, 'reused', 2), sample(4, 9, 'compacted', 6)];
    expect(statisticsByKind(samples).map((split) => [split.kind, split.statistics.steps, split.statistics.middlewareMedianMs])).toEqual([
      ['fits', 1, 1],
      ['reused', 1, 2],
      ['compacted', 2, 5],
    ]);
    const plain: StepSample = { step: 1, kind: 'plain', stepMs: 6, modelCallMs: 5, middlewareMs: undefined };
    expect(stepStatistics([plain]).middlewareMedianMs).toBeNaN();
  });

  it('pairs each wrapped step with the plain run of the same round and step, over the steps both answered', () => {
    const wrapped = [[sample(1, 3), sample(2, 4), sample(3, 10)], [sample(1, 6)]];
    // Round 0's plain run was refused at step 3: two pairs from it; round 1 gives one.
    const plain = [[sample(1, 2), sample(2, 2)], [sample(1, 1)]];
    expect(pairedDifference(wrapped, plain)).toEqual({ pairs: 3, addedMedianMs: 2, addedP95Ms: 5 });
  });
});
