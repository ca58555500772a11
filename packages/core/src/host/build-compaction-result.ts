import type { Message } from '../messages/message.js';
import { computeSourceDigest } from '../digest/source-digest.js';
import type { CompactionResult, CompactionStats, FoldedMessage, RemovedContent } from '../provider/compaction-result.js';
import type { TokenCounter } from '../tokens/token-counter.js';

export interface BuildCompactionResultOptions {
  readonly input: readonly Message[];
  readonly output: readonly Message[];
  readonly tokens: TokenCounter;
  /** `performance.now()` when compression started. */
  readonly startedAt: number;
  readonly removed?: readonly RemovedContent[];
  readonly limitations?: readonly string[];
  readonly folded?: readonly FoldedMessage[];
  readonly coveredThrough?: number;
  readonly modelStats?: Pick<CompactionStats, 'modelInputTokens' | 'modelOutputTokens' | 'modelCalls'>;
}

/** Assembles a `CompactionResult` with digest and stats filled in, for provider authors. */
export function buildCompactionResult(options: BuildCompactionResultOptions): CompactionResult {
  return {
    messages: options.output,
    sourceDigest: computeSourceDigest(options.input),
    coveredThrough: options.coveredThrough ?? options.input.length - 1,
    removed: options.removed ?? [],
    limitations: options.limitations ?? [],
    ...(options.folded && options.folded.length > 0 ? { folded: options.folded } : {}),
    stats: {
      tokensBefore: options.tokens.countMessages(options.input),
      tokensAfter: options.tokens.countMessages(options.output),
      timeMs: performance.now() - options.startedAt,
      ...options.modelStats,
    },
  };
}
