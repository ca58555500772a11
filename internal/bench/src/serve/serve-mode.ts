/** The serve section's workloads in one run (serve/): conversations, turns and rounds. */
export interface ServeMode {
  /** Conversations per client of the short case (each `shortTurns` turns, every request fits). */
  readonly shortConversations: number;
  readonly shortTurns: number;
  /** Conversations per client of the long case, each growing to `longTurns` turns (the proxy compacts). */
  readonly longConversations: number;
  readonly longTurns: number;
  /** Untimed turns of one conversation per client first (code compiled, a compaction run). */
  readonly warmUpTurns: number;
  /** Conversations in flight at once in the throughput case, and the turns each grows by. */
  readonly concurrency: number;
  readonly throughputTurns: number;
  /** Interleaved rounds of the throughput case (each runs direct and every store once). */
  readonly throughputRounds: number;
  /** Turns of the untimed round per target before them. */
  readonly throughputWarmUpTurns: number;
}

// About a minute and a half on 2 shared cores.
export const FULL_SERVE_MODE: ServeMode = {
  shortConversations: 24,
  shortTurns: 10,
  longConversations: 3,
  longTurns: 200,
  warmUpTurns: 40,
  concurrency: 8,
  throughputTurns: 40,
  throughputRounds: 5,
  throughputWarmUpTurns: 16,
};

/** CI's smoke run: every case, a few seconds. */
export const QUICK_SERVE_MODE: ServeMode = {
  shortConversations: 2,
  shortTurns: 10,
  longConversations: 1,
  longTurns: 40,
  warmUpTurns: 20,
  concurrency: 8,
  throughputTurns: 8,
  throughputRounds: 1,
  throughputWarmUpTurns: 4,
};
