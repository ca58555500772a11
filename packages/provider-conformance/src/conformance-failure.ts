import type { IntegrityRule } from '@ollm/core';

/**
 * The checks the conformance suite runs on every provider result. Integrity violations are
 * reported as `integrity:<rule>` with core's rule name (see `INTEGRITY_RULES`).
 */
export const CONFORMANCE_CHECKS = {
  compress: 'compress resolves to a result object with messages, stats, removed and limitations',
  'source-digest': 'sourceDigest equals computeSourceDigest(input)',
  'source-digest-stable': 'a second run on a deep copy of the input gives the same sourceDigest',
  'input-unchanged': 'the input array and its messages are not mutated',
  'output-not-larger': 'the output has no more tokens than the input (fresh recount)',
  'messages-preserved': 'every system, user and pinned input message is present and identical unless folded',
  'covered-through': 'coveredThrough is an integer within -1..input.length-1',
  stats: 'stats.tokensBefore and stats.tokensAfter match a recount of input and output',
  'removed-files': 'every removed entry names an input message; one with a path names a file under logdir whose sha256 matches',
  limitations: 'an output still over the limit comes with at least one limitations entry',
  'should-compress': 'shouldCompress returns a boolean and does not throw',
} as const;

export type ConformanceCheck = keyof typeof CONFORMANCE_CHECKS | `integrity:${IntegrityRule}`;

export interface ConformanceFailure {
  /** Which check failed: a key of `CONFORMANCE_CHECKS` or `integrity:<rule>`. */
  readonly check: string;
  readonly detail: string;
}
