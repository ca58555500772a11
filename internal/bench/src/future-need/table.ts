import { formatPercent, markdownTable } from '../markdown-table.js';
import { PROBE_KINDS, type ProbeKind } from './fact-probes.js';
import { HELD_IN, type HeldIn } from './future-needs.js';
import { IDENTIFIER_KINDS } from './identifiers.js';
import type { FutureNeedBudgetSummary, FutureNeedSummary, NeedCount } from './summary.js';

const PLACE_LABELS: Record<HeldIn, string> = {
  'assistant-text': 'in prose',
  'tool-call': 'in tool-call args',
  'tool-result': 'in tool output only',
};

const count = (part: number, whole: number) => `${part}/${whole}`;

/** The budget the one-budget columns show: 25% when measured, else the middle one. */
export function headlineBudget(budgets: readonly number[]): number | undefined {
  return budgets.includes(0.25) ? 0.25 : budgets[Math.floor(budgets.length / 2)];
}

/**
 * Pooled retention of one probe kind (one decimal), `—` when no cut had a probe of it (or the
 * report predates B-D: `pnpm bench --from` an older one).
 */
function pooled(entry: FutureNeedBudgetSummary | undefined, kind: ProbeKind): string {
  return formatPercent(kind === 'A' ? entry?.pooledRetention : entry?.probes?.[kind]?.pooledRetention, 1);
}

const percents = (budgets: readonly number[]) => budgets.map((budget) => formatPercent(budget));

/**
 * The future-need table: a row per strategy; outputs under each budget (of the cuts), valid over
 * every cut and budget, the cuts whose output grew as the budget shrank, and pooled retention
 * (retained / available over the cuts) of A, B and D at the headline budget (25%) and of C at
 * every budget. C at 25% is the headline.
 */
export function futureNeedTable(summaries: readonly FutureNeedSummary[]): string {
  const budgets = summaries[0]?.byBudget.map((entry) => entry.budget) ?? [];
  const headline = headlineBudget(budgets);
  const cuts = summaries[0]?.byBudget[0]?.cuts ?? 0;
  const at = (summary: FutureNeedSummary) => summary.byBudget.find((entry) => entry.budget === headline);
  const label = headline === undefined ? '' : formatPercent(headline);
  return markdownTable(
    [
      'strategy',
      `under ${percents(budgets)
        .map((text) => text.replace('%', ''))
        .join('/')}% (of ${cuts})`,
      'valid',
      'monotone breaks',
      `A ${label}`,
      `B ${label}`,
      `C ${percents(budgets).join(' / ')}`,
      `D ${label}`,
    ],
    summaries.map((summary) => [
      summary.strategy,
      summary.byBudget.map((entry) => entry.underBudget).join('/'),
      count(summary.valid, summary.cases),
      summary.monotoneBreaks === undefined ? '—' : count(summary.monotoneBreaks, summary.monotoneCuts),
      pooled(at(summary), 'A'),
      pooled(at(summary), 'B'),
      summary.byBudget.map((entry) => pooled(entry, 'C')).join(' / '),
      pooled(at(summary), 'D'),
    ]),
    'lrrrrrrr',
  );
}

/**
 * Pooled retention of A, B, C and D at each budget, a row per strategy and budget, with the
 * median output size; the probes available in the header (the same for every strategy).
 */
export function futureNeedProbeTable(summaries: readonly FutureNeedSummary[]): string {
  const first = summaries[0]?.byBudget[0];
  return markdownTable(
    [
      'strategy',
      'budget',
      'tokens after (median)',
      ...PROBE_KINDS.map((kind) => `${kind} (${(kind === 'A' ? first?.needs : first?.probes?.[kind]?.available) ?? 0})`),
    ],
    summaries.flatMap((summary) =>
      summary.byBudget.map((entry) => [
        summary.strategy,
        formatPercent(entry.budget),
        formatPercent(entry.medianTokensAfterShare, 1),
        ...PROBE_KINDS.map((kind) => pooled(entry, kind)),
      ]),
    ),
    `llr${'r'.repeat(PROBE_KINDS.length)}`,
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
