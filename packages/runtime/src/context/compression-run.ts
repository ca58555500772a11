import type { CompactionResult, CompactionStats } from '@ollm/core';

/** One stage of a compression that changed the context. */
export interface AppliedStage {
  readonly provider: string;
  readonly result: CompactionResult;
}

/**
 * The stages of one compression (the automatic policy's rule stages, the model stage, the window
 * guard) merged into one result: one compression is one count, one `compressed` event and one
 * history entry, however many stages it took. Each stage's input is the previous stage's output.
 */
export function mergeStages(stages: readonly AppliedStage[]): { provider: string; result: CompactionResult } {
  const first = stages[0];
  const last = stages.at(-1);
  if (!first || !last) throw new Error('mergeStages needs at least one stage');
  if (stages.length === 1) return { provider: first.provider, result: first.result };
  const sum = (key: keyof CompactionStats) => stages.reduce((total, stage) => total + (stage.result.stats[key] ?? 0), 0);
  const folded = stages.flatMap((stage) => stage.result.folded ?? []);
  const result: CompactionResult = {
    messages: last.result.messages,
    sourceDigest: first.result.sourceDigest,
    coveredThrough: first.result.coveredThrough,
    removed: stages.flatMap((stage) => stage.result.removed),
    stats: {
      tokensBefore: first.result.stats.tokensBefore,
      tokensAfter: last.result.stats.tokensAfter,
      timeMs: sum('timeMs'),
      modelInputTokens: sum('modelInputTokens'),
      modelOutputTokens: sum('modelOutputTokens'),
      modelCalls: sum('modelCalls'),
    },
    limitations: stages.flatMap((stage) => stage.result.limitations),
    ...(folded.length > 0 ? { folded } : {}),
  };
  return { provider: stages.map((stage) => stage.provider).join(','), result };
}
