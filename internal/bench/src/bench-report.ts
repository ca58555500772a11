import type { CompactMemoryResult } from './compact-memory-workload.js';
import type { CompactionSummary } from './compaction-summary.js';
import type { CompactionCase } from './compaction-workload.js';
import type { FixtureSet } from './fixture-set.js';
import type { FutureNeedReport } from './future-need/report.js';
import type { GoalAwareSessionResult } from './goal-aware-workload.js';
import type { LongChatReport } from './long-chat/measure.js';
import type { PromptCacheReport } from './prompt-cache/measure.js';
import type { MachineDescription } from './machine.js';
import type { MiddlewareReport } from './middleware/middleware-report.js';
import type { ServeReport } from './serve/serve-report.js';
import type { SessionHistoryResult } from './session-history-workload.js';
import type { SpeedReport } from './speed/speed-report.js';
import type { ColdCount, IncrementalCost } from './token-accounting-workload.js';

/** Everything one `pnpm bench` run measured: written as JSON, rendered as docs/benchmarks.md. */
export interface BenchReport {
  readonly mode: 'full' | 'quick';
  readonly date: string;
  readonly durationSeconds: number;
  readonly machine: MachineDescription;
  readonly fixtures: {
    readonly folder: string;
    readonly origin: FixtureSet['origin'];
    readonly files: readonly { readonly file: string; readonly conversations: number }[];
  };
  readonly tokenAccounting: {
    readonly coldCounts: readonly ColdCount[];
    readonly incremental: IncrementalCost;
  };
  readonly compaction: {
    readonly targets: readonly number[];
    readonly repetitions: number;
    readonly summaries: readonly CompactionSummary[];
    /** The largest transcript, timed with more repetitions. */
    readonly largest: {
      readonly conversation: string;
      readonly tokensBefore: number;
      readonly repetitions: number;
      /** core's computeSourceDigest of the input alone (every ollm provider computes it once per run). */
      readonly sourceDigestMs: number;
      readonly cases: readonly CompactionCase[];
    };
    readonly cases: readonly CompactionCase[];
  };
  readonly goalAware: readonly GoalAwareSessionResult[] | { readonly skipped: string };
  readonly sessionHistory: SessionHistoryResult;
  readonly compactMemory: CompactMemoryResult;
  /** Future-need retention (future-need/); absent from reports written before it existed. */
  readonly futureNeed?: FutureNeedReport | { readonly skipped: string };
  /** Long chats on LoCoMo (long-chat/); absent from reports written before it existed. */
  readonly longChat?: LongChatReport | { readonly skipped: string };
  /** Prompt-cache reuse in an agent loop (prompt-cache/); absent from reports written before it existed. */
  readonly promptCache?: PromptCacheReport | { readonly skipped: string };
  /** The speed section (speed/); absent from reports written before it existed. */
  readonly speed?: SpeedReport | { readonly skipped: string };
  /** The serve section (serve/); absent from reports written before it existed. */
  readonly serve?: ServeReport | { readonly skipped: string };
  /** The middleware section (middleware/); absent from reports written before it existed. */
  readonly middleware?: MiddlewareReport | { readonly skipped: string };
}
