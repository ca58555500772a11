import type { CompactionCase } from './compaction-workload.js';
import type { FixtureKind } from './fixture-set.js';
import { median } from './measure.js';

export interface CompactionSummary {
  readonly kind: FixtureKind;
  readonly target: number;
  readonly strategy: string;
  readonly family: string;
  readonly conversations: number;
  readonly medianColdMs: number;
  readonly medianWarmMs: number;
  /** Median of tokensAfter / tokensBefore. */
  readonly medianTokensAfterShare: number;
  /** Conversations at or under the limit. */
  readonly reachedLimit: number;
  /** Conversations whose output breaks no integrity rule. */
  readonly valid: number;
  /** Conversations whose tool calls and results are still paired. */
  readonly paired: number;
  /** Rule name -> conversations breaking it. */
  readonly brokenRules: Readonly<Record<string, number>>;
  /** Median over conversations with at least one probe in their source. */
  readonly medianRetention?: number;
  /** All retained probes / all available probes. */
  readonly pooledRetention?: number;
  readonly errors: number;
}

/** Groups cases by dataset, target and strategy (in first-seen order) and summarises each group. */
export function summarizeCompaction(cases: readonly CompactionCase[]): CompactionSummary[] {
  const groups = new Map<string, CompactionCase[]>();
  for (const entry of cases) {
    const key = `${entry.kind}\u0000${entry.target}\u0000${entry.strategy}`;
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
  }
  return [...groups.values()].map((group): CompactionSummary => {
    const first = group[0]!;
    const brokenRules: Record<string, number> = {};
    for (const entry of group) for (const rule of entry.brokenRules) brokenRules[rule] = (brokenRules[rule] ?? 0) + 1;
    const retentions = group.flatMap((entry) => (entry.retention === undefined ? [] : [entry.retention]));
    const available = group.reduce((sum, entry) => sum + entry.probesAvailable, 0);
    const retained = group.reduce((sum, entry) => sum + entry.probesRetained, 0);
    return {
      kind: first.kind,
      target: first.target,
      strategy: first.strategy,
      family: first.family,
      conversations: group.length,
      medianColdMs: median(group.map((entry) => entry.timeColdMs)),
      medianWarmMs: median(group.map((entry) => entry.timeWarmMs)),
      medianTokensAfterShare: median(group.map((entry) => entry.tokensAfter / entry.tokensBefore)),
      reachedLimit: group.filter((entry) => entry.tokensAfter <= entry.limit).length,
      valid: group.filter((entry) => entry.brokenRules.length === 0).length,
      paired: group.filter((entry) => entry.pairingProblem === undefined).length,
      brokenRules,
      ...(retentions.length > 0 ? { medianRetention: median(retentions) } : {}),
      ...(available > 0 ? { pooledRetention: retained / available } : {}),
      errors: group.filter((entry) => entry.error !== undefined).length,
    };
  });
}
