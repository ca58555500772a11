import { median } from '../measure.js';
import { percentile } from '../serve/latency-statistics.js';
import { STEP_KINDS, type StepKind, type StepSample } from './step-timeline.js';

/** Medians and 95th percentiles of a set of steps. */
export interface StepStatistics {
  readonly steps: number;
  readonly stepMedianMs: number;
  readonly stepP95Ms: number;
  readonly modelCallMedianMs: number;
  readonly modelCallP95Ms: number;
  /** NaN for steps without a middleware. */
  readonly middlewareMedianMs: number;
  readonly middlewareP95Ms: number;
}

export function stepStatistics(samples: readonly StepSample[]): StepStatistics {
  const steps = samples.map((sample) => sample.stepMs);
  const calls = samples.map((sample) => sample.modelCallMs);
  const own = samples.flatMap((sample) => (sample.middlewareMs === undefined ? [] : [sample.middlewareMs]));
  return {
    steps: samples.length,
    stepMedianMs: median(steps),
    stepP95Ms: percentile(steps, 0.95),
    modelCallMedianMs: median(calls),
    modelCallP95Ms: percentile(calls, 0.95),
    middlewareMedianMs: median(own),
    middlewareP95Ms: percentile(own, 0.95),
  };
}

/** The same steps split by kind, in `STEP_KINDS` order, kinds without a step left out. */
export function statisticsByKind(samples: readonly StepSample[]): { readonly kind: StepKind; readonly statistics: StepStatistics }[] {
  return STEP_KINDS.flatMap((kind) => {
    const ofKind = samples.filter((sample) => sample.kind === kind);
    return ofKind.length === 0 ? [] : [{ kind, statistics: stepStatistics(ofKind) }];
  });
}

/** A wrapped loop's model calls against the plain loop's, step by step. */
export interface PairedDifference {
  /** Steps both runs of a pair answered. */
  readonly pairs: number;
  /** Median and 95th percentile of (wrapped − plain) per pair: what the middleware added to a model call. */
  readonly addedMedianMs: number;
  readonly addedP95Ms: number;
}

/**
 * Pairs the wrapped run of each round with the plain run of the same round, step by step, over
 * the steps both answered (a plain run refused at step k has k − 1).
 */
export function pairedDifference(wrapped: readonly (readonly StepSample[])[], plain: readonly (readonly StepSample[])[]): PairedDifference {
  const added: number[] = [];
  for (const [round, samples] of wrapped.entries()) {
    const plainSteps = new Map((plain[round] ?? []).map((sample) => [sample.step, sample.modelCallMs] as const));
    for (const sample of samples) {
      const other = plainSteps.get(sample.step);
      if (other !== undefined) added.push(sample.modelCallMs - other);
    }
  }
  return { pairs: added.length, addedMedianMs: median(added), addedP95Ms: percentile(added, 0.95) };
}
