import type { MachineDescription } from '../machine.js';
import type { PairedDifference, StepStatistics } from './step-statistics.js';
import type { StepKind } from './step-timeline.js';

export type MiddlewareFramework = 'ai-sdk' | 'langchain';
export const MIDDLEWARE_FRAMEWORKS: readonly MiddlewareFramework[] = ['ai-sdk', 'langchain'];

/** One framework's loop of one length, plain or wrapped, over all its runs. */
export interface MiddlewareLoopCase {
  readonly framework: MiddlewareFramework;
  readonly wrapped: boolean;
  /** Tool results the loop asks for: `loopSteps + 1` model calls when it runs to its end. */
  readonly loopSteps: number;
  readonly runs: number;
  /** Per run, the step the server refused as over the window (plain loops whose history passed it). */
  readonly refusedSteps: readonly number[];
  /** The largest prompt the server answered, and answered prompts over the window (with the reply limit; 0, as it enforces the window). */
  readonly largestPromptTokens: number;
  readonly answeredOverWindow: number;
  /** The largest history a wrapped run's middleware was given (before compaction); 0 when it never compacted. */
  readonly largestHistoryTokens: number;
  readonly all: StepStatistics;
  /** The same steps split by what the middleware did (`plain` without one). */
  readonly byKind: readonly { readonly kind: StepKind; readonly statistics: StepStatistics }[];
  /** Wrapped loops: each model call against the plain loop's same step of the same round. */
  readonly added?: PairedDifference;
  /**
   * Wrapped loops that reused compactions in both halves: the reused steps up to `splitStep` and
   * after it, apart (each step reads the whole prompt again, so the later ones carry more history).
   */
  readonly reusedByHalf?: { readonly splitStep: number; readonly first: StepStatistics; readonly second: StepStatistics };
}

/** Every figure of the middleware section of one run. */
export interface MiddlewareReport {
  readonly date: string;
  readonly durationSeconds: number;
  /** The section is recorded on its own too (record-docs --only middleware): it names its machine. */
  readonly machine: MachineDescription;
  readonly model: string;
  readonly window: number;
  readonly replyLimit: number;
  readonly pipeline: string;
  /** The versions the loops ran with. */
  readonly packages: Readonly<Record<string, string>>;
  /** Tokens of one `read_file` result (the first file of a run). */
  readonly toolResultTokens: number;
  readonly warmUpSteps: number;
  readonly cases: readonly MiddlewareLoopCase[];
}
