import type { Message } from '../messages/message.js';
import { computeSourceDigest } from '../digest/source-digest.js';
import type { CompactionResult, CompactionStats, FoldedMessage, RemovedContent } from '../provider/compaction-result.js';
import type { CompactionWarning } from '../provider/v2/compaction-warning.js';
import type { TokenCounting } from '../tokens/token-counting.js';

export interface BuildCompactionResultOptions {
  readonly input: readonly Message[];
  readonly output: readonly Message[];
  readonly tokens: TokenCounting;
  /** `performance.now()` when compression started. */
  readonly startedAt: number;
  readonly removed?: readonly RemovedContent[];
  readonly limitations?: readonly string[];
  readonly folded?: readonly FoldedMessage[];
  readonly warnings?: readonly CompactionWarning[];
  readonly coveredThrough?: number;
  readonly modelStats?: Pick<CompactionStats, 'modelInputTokens' | 'modelOutputTokens' | 'modelCalls'>;
}

/**
 * Results whose `sourceDigest` the host computes on first read (a string by construction): the
 * validator need not compute it to check its type, so a compaction nobody asks the digest of
 * never hashes its whole input.
 */
export const LAZY_DIGESTS = new WeakSet<object>();

/**
 * `result` (all its own fields but `sourceDigest`, copied without reading any getter) with a
 * `sourceDigest` computed by `digest` on first read, then kept.
 */
export function withLazyDigest<T extends object>(result: T, digest: () => string): Omit<T, 'sourceDigest'> & { readonly sourceDigest: string } {
  const descriptors = Object.getOwnPropertyDescriptors(result) as PropertyDescriptorMap;
  delete descriptors['sourceDigest'];
  const copy = Object.defineProperties({}, descriptors);
  let known: string | undefined;
  Object.defineProperty(copy, 'sourceDigest', { enumerable: true, get: () => (known ??= digest()) });
  LAZY_DIGESTS.add(copy);
  return copy as Omit<T, 'sourceDigest'> & { readonly sourceDigest: string };
}

/**
 * Assembles a `CompactionResult` with digest and stats filled in. The source digest is computed
 * when first read (a v2 provider's host never reads the one its helpers built), then kept.
 */
export function buildCompactionResult(options: BuildCompactionResultOptions): CompactionResult {
  let digest: string | undefined;
  const result = {
    messages: options.output,
    coveredThrough: options.coveredThrough ?? options.input.length - 1,
    removed: options.removed ?? [],
    limitations: options.limitations ?? [],
    ...(options.folded && options.folded.length > 0 ? { folded: options.folded } : {}),
    ...(options.warnings ? { warnings: options.warnings } : {}),
    stats: {
      tokensBefore: options.tokens.countMessages(options.input),
      tokensAfter: options.tokens.countMessages(options.output),
      timeMs: performance.now() - options.startedAt,
      ...options.modelStats,
    },
  };
  Object.defineProperty(result, 'sourceDigest', { enumerable: true, get: () => (digest ??= computeSourceDigest(options.input)) });
  LAZY_DIGESTS.add(result);
  return result as typeof result & { readonly sourceDigest: string };
}
