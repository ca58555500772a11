import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { CompactionResult, CompactionStats } from '../provider/compaction-result.js';
import { withLazyDigest } from './build-compaction-result.js';

/** One stage of a compaction that changed the conversation. */
export interface AppliedStage {
  readonly provider: string;
  readonly result: CompactionResult;
}

/**
 * The stages of one compaction (a pipeline's, or the runtime's rule stages, model stage and
 * window guard) merged into one result: removed pieces, warnings and model stats add up, limitations
 * keep the stage's name when `labelLimitations`. Each stage's input is the previous stage's output.
 */
export function mergeStages(stages: readonly AppliedStage[], { labelLimitations = false } = {}): { provider: string; result: CompactionResult } {
  const first = stages[0];
  const last = stages.at(-1);
  if (!first || !last) throw new InvalidArgumentError({ argument: 'stages', message: 'mergeStages needs at least one stage' });
  if (stages.length === 1 && !labelLimitations) return { provider: first.provider, result: first.result };
  const sum = (key: keyof CompactionStats) => stages.reduce((total, stage) => total + (stage.result.stats[key] ?? 0), 0);
  const folded = stages.flatMap((stage) => stage.result.folded ?? []);
  // The first stage's digest, read only if someone reads the merged one (a host does not).
  const result: CompactionResult = withLazyDigest(
    {
      messages: last.result.messages,
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
      limitations: stages.flatMap((stage) => stage.result.limitations.map((text) => (labelLimitations ? labelled(stage.provider, text) : text))),
      warnings: stages.flatMap((stage) => stage.result.warnings ?? []),
      ...(folded.length > 0 ? { folded } : {}),
    },
    () => first.result.sourceDigest,
  );
  return { provider: stages.map((stage) => stage.provider).join(','), result };
}

/** `provider: text`, unless the provider's text already starts with its name (mask's do). */
function labelled(provider: string, text: string): string {
  return text.startsWith(`${provider}: `) ? text : `${provider}: ${text}`;
}
