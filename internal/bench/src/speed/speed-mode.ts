/** The speed section's workloads in one run (speed/): sizes, rounds and limits. */
export interface SpeedMode {
  /** Share of each conversation's tokens every contender compacts to. */
  readonly budget: number;
  /** Interleaved rounds per SWE-agent transcript, warm and fresh (in-process). */
  readonly rounds: number;
  /** Rounds of the plain LangChain counter, which takes the square of the others' time. */
  readonly costlyRounds: number;
  /** Rounds of the live-agent case (one more turn) per transcript. */
  readonly liveRounds: number;
  /** Transcripts (the largest first) measured in new processes (cold, and fresh after another transcript); undefined: all. */
  readonly processTranscripts?: number;
  /** New processes per contender, kind and transcript, in interleaved rounds (their median is taken). */
  readonly processRounds: number;
  /** The contenders run in new processes. */
  readonly processContenders: readonly string[];
  readonly processTimeoutSeconds: number;
  /** Conversation sizes of the scaling curve, in tokens. */
  readonly scalingSizes: readonly number[];
  readonly scalingRounds: number;
  /** From this size on, `scalingLargeRounds` rounds. */
  readonly scalingLargeFrom: number;
  readonly scalingLargeRounds: number;
  /** A contender is not run at a size where its own growth predicts a run longer than this. */
  readonly scalingCapSeconds: number;
  /** Active messages of the runtime's per-turn check. */
  readonly runtimeSizes: readonly number[];
  readonly runtimeTurns: number;
  /** Turns of the session whose pinned messages outgrow the window, and its window. */
  readonly pinnedTurns: number;
  readonly pinnedContextSize: number;
  /** Interleaved rounds of the CLI start-up commands. */
  readonly cliRounds: number;
  /** Hostile inputs: repeated characters and JSON nesting depths, and the time limit of each run. */
  readonly hostileRepeated: readonly number[];
  readonly hostileNestedDepths: readonly number[];
  readonly hostileTimeoutSeconds: number;
}

export const FULL_SPEED_MODE: SpeedMode = {
  budget: 0.5,
  rounds: 5,
  costlyRounds: 1,
  liveRounds: 5,
  processTranscripts: 8,
  processRounds: 3,
  processContenders: ['trim', 'mask,code-aware,trim', 'fold', 'langchain-cached', 'ai-sdk-ladder', 'floor', 'code-parse'],
  processTimeoutSeconds: 120,
  scalingSizes: [10_000, 100_000, 1_000_000, 5_000_000],
  scalingRounds: 3,
  scalingLargeFrom: 1_000_000,
  scalingLargeRounds: 1,
  scalingCapSeconds: 30,
  runtimeSizes: [100, 10_000, 100_000],
  runtimeTurns: 200,
  pinnedTurns: 600,
  pinnedContextSize: 16_384,
  cliRounds: 7,
  hostileRepeated: [100_000, 300_000, 5_000_000],
  hostileNestedDepths: [5_000],
  hostileTimeoutSeconds: 20,
};

/** CI's smoke run: every part, small. */
export const QUICK_SPEED_MODE: SpeedMode = {
  budget: 0.5,
  rounds: 3,
  costlyRounds: 1,
  liveRounds: 3,
  processTranscripts: 1,
  processRounds: 1,
  processContenders: ['trim', 'mask,code-aware,trim', 'fold', 'floor', 'code-parse'],
  processTimeoutSeconds: 60,
  scalingSizes: [10_000, 30_000, 100_000],
  scalingRounds: 2,
  scalingLargeFrom: 1_000_000,
  scalingLargeRounds: 1,
  // The plain LangChain counter's square stops before 100K tokens.
  scalingCapSeconds: 3,
  runtimeSizes: [100, 10_000],
  runtimeTurns: 50,
  pinnedTurns: 150,
  pinnedContextSize: 16_384,
  cliRounds: 1,
  hostileRepeated: [20_000],
  hostileNestedDepths: [5_000],
  hostileTimeoutSeconds: 20,
};
