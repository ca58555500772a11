/** The middleware section's loops in one run (middleware/): lengths and runs. */
export interface MiddlewareMode {
  /** Tool results of the short loop (every prompt fits the window), and its runs per framework and variant. */
  readonly shortSteps: number;
  readonly shortRuns: number;
  /** Tool results of the long loop (the history passes the window; the plain model is refused), and its runs. */
  readonly longSteps: number;
  readonly longRuns: number;
  /** Steps of the untimed loop per framework and variant first (code compiled, fold run). */
  readonly warmUpSteps: number;
}

// About a minute on 2 shared cores.
export const FULL_MIDDLEWARE_MODE: MiddlewareMode = { shortSteps: 10, shortRuns: 30, longSteps: 100, longRuns: 12, warmUpSteps: 40 };

/** CI's smoke run: both loops, a few seconds. */
export const QUICK_MIDDLEWARE_MODE: MiddlewareMode = { shortSteps: 10, shortRuns: 2, longSteps: 30, longRuns: 1, warmUpSteps: 20 };
