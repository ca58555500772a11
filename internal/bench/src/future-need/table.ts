import { formatPercent, markdownTable } from '../markdown-table.js';
import { HELD_IN, type HeldIn } from './future-needs.js';
import { IDENTIFIER_KINDS } from './identifiers.js';
import type { FutureNeedSummary, NeedCount } from './summary.js';

const PLACE_LABELS: Record<HeldIn, string> = {
  'assistant-text': 'in prose',
  'tool-call': 'in tool-call args',
  'tool-result': 'in tool output only',
};

const count = (part: number, whole: number) => `${part}/${whole}`;

/**
 * The future-need table: a row per strategy; valid and task kept over every cut and budget,
 * under budget and retention (median over cuts, pooled in parentheses) at each budget.
 */
export function futureNeedTable(summaries: readonly FutureNeedSummary[]): string {
  const budgets = summaries[0]?.byBudget.map((entry) => entry.budget) ?? [];
  return markdownTable(
    [
      'strategy',
      'valid',
      ...budgets.map((budget) => `under ${formatPercent(budget)}`),
      'task kept',
      ...budgets.map((budget) => `future-need at ${formatPercent(budget)}: median (pooled)`),
    ],
    summaries.map((summary) => [
      summary.strategy,
      count(summary.valid, summary.cases),
      ...summary.byBudget.map((entry) => count(entry.underBudget, entry.cuts)),
      count(summary.taskKept, summary.cases),
      ...summary.byBudget.map((entry) => `${formatPercent(entry.medianRetention, 1)} (${formatPercent(entry.pooledRetention, 1)})`),
    ]),
    `l${'r'.repeat(1 + budgets.length * 2 + 1)}`,
  );
}

function share(entry: NeedCount | undefined): string {
  return entry === undefined ? '—' : formatPercent(entry.retained / entry.needs, 1);
}

/**
 * Pooled retention per identifier kind and per the most lasting place the prefix held the
 * identifier (its prose, its tool-call arguments, or only tool output), at each budget; needs in
 * parentheses in the header (the same for every strategy).
 */
export function futureNeedByKindTable(summaries: readonly FutureNeedSummary[]): string {
  const first = summaries[0]?.byBudget[0];
  const kinds = IDENTIFIER_KINDS.filter((kind) => first?.byIdentifierKind[kind] !== undefined);
  const places = HELD_IN.filter((place) => first?.byPlace[place] !== undefined);
  const rows = summaries.flatMap((summary) =>
    summary.byBudget.map((entry) => [
      summary.strategy,
      formatPercent(entry.budget),
      formatPercent(entry.medianTokensAfterShare, 1),
      ...kinds.map((kind) => share(entry.byIdentifierKind[kind])),
      ...places.map((place) => share(entry.byPlace[place])),
    ]),
  );
  return markdownTable(
    [
      'strategy',
      'budget',
      'tokens after (median)',
      ...kinds.map((kind) => `${kind} (${first!.byIdentifierKind[kind]!.needs})`),
      ...places.map((place) => `${PLACE_LABELS[place]} (${first!.byPlace[place]!.needs})`),
    ],
    rows,
    `llr${'r'.repeat(kinds.length + places.length)}`,
  );
}
