/**
 * What issue 15 measured before the work it asks for ("What was seen"), quoted so that the speed
 * section can set this run beside it. Median ms per SWE-agent transcript at a 50% budget; ratios ollm / peer.
 */
export const ISSUE_15_BEFORE = {
  trim: { warmMs: 7.2, warmOverLangChain: 15.8, warmOverAiSdk: 31, freshMs: 13.1, freshOverLangChain: 1.95, freshOverAiSdk: 1.93, coldMs: 96 },
  pipeline: { warmMs: 17.1, warmOverLangChain: 38, warmOverAiSdk: 75, freshMs: 23.4, freshOverLangChain: 3.4, freshOverAiSdk: 3.5, coldMs: 222 },
  langChainCached: { warmMs: 0.45, freshMs: 7.3, coldMs: 49 },
  aiSdkLadder: { warmMs: 0.22, freshMs: 6.7, coldMs: 54 },
  cli: {
    compactTrimMs: 587,
    compactTrimOverNode: 9.3,
    compactTrimReportedMs: 56,
    compactPipelineMs: 894,
    compactPipelineOverNode: 12.7,
    helpMs: 135,
    helpOverNode: 1.93,
    /** The "today" figures of the Done-when list: ollm compact / (node -e 0 + its compaction time). */
    compactTrimOverNodeAndCompaction: 3.3,
    compactDefaultOverNodeAndCompaction: 3.8,
  },
  runtimeCheckMs: { 100: 0.13, 10_000: 0.56, 100_000: 13.3 } as Readonly<Record<number, number>>,
  pinned: { contextOverWindow: 8, perTurnMs: 35 },
} as const;
