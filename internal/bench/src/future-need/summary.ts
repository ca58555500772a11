import type { FixtureKind } from '../fixture-set.js';
import { median } from '../measure.js';
import type { ProbeKind } from './fact-probes.js';
import { HELD_IN, type HeldIn } from './future-needs.js';
import { IDENTIFIER_KINDS, type IdentifierKind } from './identifiers.js';
import type { FutureNeedCase, FutureNeedResult } from './workload.js';

export interface NeedCount {
  readonly needs: number;
  readonly retained: number;
}

/** One probe kind at one budget, over the cuts. */
export interface ProbeSummary {
  readonly available: number;
  readonly retained: number;
  /** All retained / all available; undefined when no cut had a probe of the kind. */
  readonly pooledRetention?: number;
  /** Median over the cuts with at least one probe of the kind of retained / available. */
  readonly medianRetention?: number;
}

/** One strategy at one budget, over every cut of one dataset. */
export interface FutureNeedBudgetSummary {
  readonly budget: number;
  readonly cuts: number;
  readonly underBudget: number;
  readonly valid: number;
  readonly taskKept: number;
  readonly errors: number;
  readonly medianTokensAfterShare: number;
  /** Median over the cuts with at least one need of retained / needs. */
  readonly medianRetention?: number;
  /** All retained / all needs. */
  readonly pooledRetention?: number;
  readonly needs: number;
  readonly retained: number;
  readonly byIdentifierKind: Readonly<Partial<Record<IdentifierKind, NeedCount>>>;
  readonly byPlace: Readonly<Partial<Record<HeldIn, NeedCount>>>;
  /** A (the needs, as above), B, C, D (fact-probes.ts). */
  readonly probes: Readonly<Record<ProbeKind, ProbeSummary>>;
}

export interface FutureNeedSummary {
  readonly kind: FixtureKind;
  readonly strategy: string;
  readonly family: string;
  /** Cases over every budget. */
  readonly cases: number;
  readonly valid: number;
  readonly taskKept: number;
  readonly byBudget: readonly FutureNeedBudgetSummary[];
  /** The cuts this strategy was run on (each at every budget). */
  readonly monotoneCuts: number;
  /** Cuts where a tighter budget gave a larger output than the next looser one (monotoneBreaks). */
  readonly monotoneBreaks: number;
}

/**
 * How many of the cuts in `cases` (one strategy's) got a larger output at a tighter budget than at
 * the next looser one (tokensAfter at 10% above that at 25%, or at 25% above that at 50%): a
 * compaction that gives more when asked for less. A cut counts once however many pairs break.
 */
export function monotoneBreaks(cases: readonly FutureNeedCase[]): { readonly cuts: number; readonly breaks: number } {
  const byCut = new Map<string, FutureNeedCase[]>();
  for (const entry of cases) {
    const key = `${entry.kind}|${entry.conversation}|${entry.fraction}`;
    byCut.set(key, [...(byCut.get(key) ?? []), entry]);
  }
  let breaks = 0;
  for (const group of byCut.values()) {
    const sorted = [...group].sort((a, b) => b.budget - a.budget);
    if (sorted.some((entry, index) => index > 0 && entry.tokensAfter > sorted[index - 1]!.tokensAfter)) breaks += 1;
  }
  return { cuts: byCut.size, breaks };
}

function probeSummary(group: readonly FutureNeedCase[], kind: ProbeKind): ProbeSummary {
  const counts = group.map((entry) => entry.probes[kind]);
  const available = counts.reduce((sum, count) => sum + count.available, 0);
  const retained = counts.reduce((sum, count) => sum + count.retained, 0);
  const shares = counts.flatMap((count) => (count.available > 0 ? [count.retained / count.available] : []));
  return {
    available,
    retained,
    ...(available > 0 ? { pooledRetention: retained / available } : {}),
    ...(shares.length > 0 ? { medianRetention: median(shares) } : {}),
  };
}

function pooledCounts<K extends string>(
  group: readonly FutureNeedCase[],
  keys: readonly K[],
  available: (entry: FutureNeedCase) => Partial<Record<K, number>>,
  lost: (entry: FutureNeedCase) => Partial<Record<K, number>>,
): Partial<Record<K, NeedCount>> {
  const counts: Partial<Record<K, NeedCount>> = {};
  for (const key of keys) {
    const needs = group.reduce((sum, entry) => sum + (available(entry)[key] ?? 0), 0);
    if (needs === 0) continue;
    const lostCount = group.reduce((sum, entry) => sum + (lost(entry)[key] ?? 0), 0);
    counts[key] = { needs, retained: needs - lostCount };
  }
  return counts;
}

function budgetSummary(budget: number, group: readonly FutureNeedCase[], result: FutureNeedResult): FutureNeedBudgetSummary {
  const cutOf = (entry: FutureNeedCase) =>
    result.cutRecords.find((cut) => cut.conversation === entry.conversation && cut.fraction === entry.fraction && cut.kind === entry.kind)!;
  const retentions = group.flatMap((entry) => (entry.retention === undefined ? [] : [entry.retention]));
  const needs = group.reduce((sum, entry) => sum + entry.needs, 0);
  const retained = group.reduce((sum, entry) => sum + entry.retained, 0);
  return {
    budget,
    cuts: group.length,
    underBudget: group.filter((entry) => entry.underBudget).length,
    valid: group.filter((entry) => entry.valid).length,
    taskKept: group.filter((entry) => entry.taskKept).length,
    errors: group.filter((entry) => entry.error !== undefined).length,
    medianTokensAfterShare: median(group.map((entry) => entry.tokensAfter / entry.prefixTokens)),
    ...(retentions.length > 0 ? { medianRetention: median(retentions) } : {}),
    ...(needs > 0 ? { pooledRetention: retained / needs } : {}),
    needs,
    retained,
    byIdentifierKind: pooledCounts(
      group,
      IDENTIFIER_KINDS,
      (entry) => cutOf(entry).needsByKind,
      (entry) => entry.lostByKind,
    ),
    byPlace: pooledCounts(
      group,
      HELD_IN,
      (entry) => cutOf(entry).needsByPlace,
      (entry) => entry.lostByPlace,
    ),
    probes: { A: probeSummary(group, 'A'), B: probeSummary(group, 'B'), C: probeSummary(group, 'C'), D: probeSummary(group, 'D') },
  };
}

/** Per dataset and strategy (in the order run), per budget (in the order given). */
export function summarizeFutureNeed(result: FutureNeedResult): FutureNeedSummary[] {
  const summaries: FutureNeedSummary[] = [];
  const kinds = [...new Set(result.cases.map((entry) => entry.kind))];
  for (const kind of kinds) {
    for (const strategy of result.strategies) {
      const group = result.cases.filter((entry) => entry.kind === kind && entry.strategy === strategy.name);
      if (group.length === 0) continue;
      const monotone = monotoneBreaks(group);
      summaries.push({
        kind,
        strategy: strategy.name,
        family: strategy.family,
        cases: group.length,
        valid: group.filter((entry) => entry.valid).length,
        taskKept: group.filter((entry) => entry.taskKept).length,
        byBudget: result.budgets.map((budget) =>
          budgetSummary(
            budget,
            group.filter((entry) => entry.budget === budget),
            result,
          ),
        ),
        monotoneCuts: monotone.cuts,
        monotoneBreaks: monotone.breaks,
      });
    }
  }
  return summaries;
}
