import { DEFAULT_BUDGETS, DEFAULT_CUTS, DEFAULT_STRATEGY_NAMES } from './future-need/defaults.js';
import { DEFAULT_LONG_CHAT_BUDGETS, DEFAULT_LONG_CHAT_STRATEGIES } from './long-chat/defaults.js';
import { FULL_MIDDLEWARE_MODE, QUICK_MIDDLEWARE_MODE, type MiddlewareMode } from './middleware/middleware-mode.js';
import { FULL_SERVE_MODE, QUICK_SERVE_MODE, type ServeMode } from './serve/serve-mode.js';
import { FULL_SPEED_MODE, QUICK_SPEED_MODE, type SpeedMode } from './speed/speed-mode.js';

/** The future-need workload of a run (future-need/): which conversations, cuts, budgets, strategies. */
export interface FutureNeedMode {
  readonly strategies: readonly string[];
  readonly cuts: readonly number[];
  readonly budgets: readonly number[];
  /** Undefined: every SWE-agent trajectory the run loaded; else the smallest N of them. */
  readonly maximumSweAgentFiles?: number;
  /** tau-bench dialogs measured too (0: none). */
  readonly maximumTauBenchRuns: number;
}

/** The long-chat workload of a run (long-chat/): LoCoMo chats compacted whole to each budget. */
export interface LongChatMode {
  /** Names for long-chat/measure.ts's `longChatStrategy`. */
  readonly strategies: readonly string[];
  /** Shares of each chat's tokens. */
  readonly budgets: readonly number[];
  /** The LoCoMo samples; undefined: ../shared/fixtures/locomo-sample beside the repository. Missing: the section is skipped. */
  readonly folder?: string;
}

/** The prompt-cache workload (prompt-cache/): a coding agent's loop, each window, each strategy. */
export interface PromptCacheMode {
  readonly steps: number;
  readonly windows: readonly number[];
}

/** How much work a run does: `full` for docs/benchmarks.md, `quick` as CI's smoke run. */
export interface BenchMode {
  readonly name: 'full' | 'quick';
  readonly coldCountRepetitions: number;
  readonly appendSizes: readonly number[];
  readonly appendsPerSize: number;
  /** Undefined: every file / run of the fixtures. */
  readonly maximumSweAgentFiles?: number;
  readonly maximumTauBenchRuns?: number;
  readonly targets: readonly number[];
  /** Repetitions per compaction (each cold and warm); the largest transcript gets `largestRepetitions`. */
  readonly compactionRepetitions: number;
  readonly largestRepetitions: number;
  readonly goalAwareTurns: number;
  /** Automatic pipelines the goal-aware session runs with, one session each. */
  readonly goalAwarePipelines: readonly string[];
  readonly goalAwareContextSize: number;
  readonly historySizes: readonly number[];
  readonly historyAppends: number;
  /** How many times the largest transcript is repeated for the `ollm compact` memory run. */
  readonly compactScale: number;
  /** Undefined leaves future-need retention out. */
  readonly futureNeed?: FutureNeedMode;
  /** Long chats (long-chat/, LoCoMo); undefined leaves them out. */
  readonly longChat?: LongChatMode;
  /** Prompt-cache reuse in an agent loop (prompt-cache/); undefined leaves it out. */
  readonly promptCache?: PromptCacheMode;
  /** The speed section (speed/); undefined leaves it out. */
  readonly speed?: SpeedMode;
  /** The serve section (serve/): `ollm serve`'s added latency and throughput; undefined leaves it out. */
  readonly serve?: ServeMode;
  /** The middleware section (middleware/): the AI SDK's and LangChain's middlewares per agent step; undefined leaves it out. */
  readonly middleware?: MiddlewareMode;
}

export const FULL_MODE: BenchMode = {
  name: 'full',
  coldCountRepetitions: 3,
  appendSizes: [100, 1_000, 10_000, 100_000],
  appendsPerSize: 200,
  targets: [0.5, 0.25, 0.1],
  compactionRepetitions: 3,
  largestRepetitions: 5,
  goalAwareTurns: 1_000,
  goalAwarePipelines: ['goal-aware', 'mask,code-aware,trim,goal-aware'],
  goalAwareContextSize: 16_384,
  historySizes: [100, 100_000],
  historyAppends: 200,
  compactScale: 10,
  futureNeed: { strategies: DEFAULT_STRATEGY_NAMES, cuts: DEFAULT_CUTS, budgets: DEFAULT_BUDGETS, maximumTauBenchRuns: 200 },
  // About a second on the two LoCoMo chats; skipped when ../shared/fixtures/locomo-sample is not there.
  longChat: { strategies: DEFAULT_LONG_CHAT_STRATEGIES, budgets: DEFAULT_LONG_CHAT_BUDGETS },
  // About 20 seconds: 40 steps at four windows, the proxy in this process.
  promptCache: { steps: 40, windows: [8_192, 16_384, 32_768, 65_536] },
  speed: FULL_SPEED_MODE,
  serve: FULL_SERVE_MODE,
  middleware: FULL_MIDDLEWARE_MODE,
};

export const QUICK_MODE: BenchMode = {
  name: 'quick',
  coldCountRepetitions: 1,
  appendSizes: [100, 1_000],
  appendsPerSize: 20,
  maximumSweAgentFiles: 2,
  maximumTauBenchRuns: 5,
  targets: [0.5, 0.25, 0.1],
  compactionRepetitions: 1,
  largestRepetitions: 1,
  goalAwareTurns: 100,
  goalAwarePipelines: ['goal-aware'],
  goalAwareContextSize: 16_384,
  historySizes: [100, 1_000],
  historyAppends: 20,
  compactScale: 1,
  // CI's smoke run: the 2 SWE-agent trajectories quick mode loads, no tau-bench (one to two seconds).
  futureNeed: { strategies: DEFAULT_STRATEGY_NAMES, cuts: DEFAULT_CUTS, budgets: DEFAULT_BUDGETS, maximumSweAgentFiles: 2, maximumTauBenchRuns: 0 },
  // No long chats: the smoke run's time stays as it was (and LoCoMo, CC BY-NC, is only read from ../shared).
  // One window of the prompt-cache loop (a few seconds).
  promptCache: { steps: 40, windows: [16_384] },
  speed: QUICK_SPEED_MODE,
  serve: QUICK_SERVE_MODE,
  middleware: QUICK_MIDDLEWARE_MODE,
};
