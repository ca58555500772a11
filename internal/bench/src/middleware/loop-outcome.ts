import type { StepSample } from './step-timeline.js';

/** One agent loop, run to its end or to the step the server refused. */
export interface LoopOutcome {
  readonly samples: readonly StepSample[];
  /** The step whose prompt the server refused as over the window (the loop ended there); plain loops only. */
  readonly refusedStep: number | undefined;
  /** The largest history the middleware was given (tokens, before compaction); 0 when it never compacted or there is none. */
  readonly largestHistoryTokens: number;
}
