import type { CompactionResult, CompressionConfig, Message, TokenCounter } from '@ollm/core';
import type { ConformanceFailure } from '../conformance-failure.js';

/**
 * The numbers a result reports: coveredThrough, stats against a recount, size against the input,
 * and an explanation whenever the output is still over the limit. `recount` must be a counter the
 * provider never saw, so a stale cache entry cannot hide a wrong count.
 */
export function findAccountingFailures(
  input: readonly Message[],
  result: CompactionResult,
  config: CompressionConfig,
  recount: TokenCounter,
): ConformanceFailure[] {
  const failures: ConformanceFailure[] = [];
  const { coveredThrough } = result;
  if (!Number.isInteger(coveredThrough) || coveredThrough < -1 || coveredThrough > input.length - 1) {
    failures.push({ check: 'covered-through', detail: `coveredThrough ${String(coveredThrough)} is outside -1..${input.length - 1}` });
  }

  const tokensBefore = recount.countMessages(input);
  const tokensAfter = recount.countMessages(result.messages);
  if (tokensAfter > tokensBefore) {
    failures.push({ check: 'output-not-larger', detail: `output has ${tokensAfter} tokens, input ${tokensBefore}` });
  }
  if (result.stats.tokensBefore !== tokensBefore) {
    failures.push({ check: 'stats', detail: `stats.tokensBefore is ${result.stats.tokensBefore}, a recount gives ${tokensBefore}` });
  }
  if (result.stats.tokensAfter !== tokensAfter) {
    failures.push({ check: 'stats', detail: `stats.tokensAfter is ${result.stats.tokensAfter}, a recount gives ${tokensAfter}` });
  }

  if (config.limit !== undefined && tokensAfter > config.limit && result.limitations.length === 0) {
    failures.push({ check: 'limitations', detail: `output has ${tokensAfter} tokens, over the limit ${config.limit}, and limitations is empty` });
  }
  return failures;
}
