import { formatNumber, formatPercent } from '../markdown-table.js';
import type { FixtureKind } from '../fixture-set.js';
import type { FutureNeedReport } from './report.js';
import { futureNeedByKindTable, futureNeedTable } from './table.js';

/** The name of the block record-docs owns in docs/benchmarks.md (`<!-- recorded: future-need -->`). */
export const FUTURE_NEED_BLOCK = 'future-need';

const TITLES: Record<FixtureKind, string> = { 'swe-agent': 'SWE-agent (Django)', 'tau-bench': 'tau-bench (airline)' };

function list(shares: readonly number[]): string {
  const texts = shares.map((share) => formatPercent(share));
  return texts.length <= 1 ? texts.join('') : `${texts.slice(0, -1).join(', ')} and ${texts[texts.length - 1]}`;
}

/**
 * The content of the future-need block: method, a table per dataset, retention by identifier
 * kind, the chart. Nothing in it depends on time, so recording it twice changes nothing.
 */
export function futureNeedBlock(report: FutureNeedReport, chartFile: string): string {
  const lines: string[] = [
    `Each trajectory is cut after ${list(report.cuts)} of its steps (a step: an assistant message and its tool results), and the prefix is compacted to ${list(report.budgets)} of its own tokens (o200k_base, counted as ollm counts, the same counter for every strategy). ` +
      "The compacted prefix is then searched for the identifiers the agent's **later** steps use — file paths, snake_case and camelCase names, error type names, read from the later assistant messages' prose and their tool-call arguments decoded from JSON — " +
      "that the prefix's assistant/tool messages already held; identifiers any system or user message holds are left out (nothing may drop those). No model is involved, and every strategy is probed the same way.",
    '',
    '**valid**: every tool result follows its call, no call lost its result, and the system message and the first user message (the task) are kept unchanged, over every cut and budget; **task kept**: the last part alone. ' +
      '**under**: outputs at or under the budget. **future-need**: the share of the needs still held, as the median over cuts (cuts with no need left out) and pooled (all retained / all needs) in parentheses.',
    '',
    [
      report.strategies.some((strategy) => strategy.family === 'ollm') &&
        'ollm: the pipeline through a `ProviderRegistry` and `compactWith` with `config.limit` = the budget.',
      report.strategies.some((strategy) => strategy.family === 'AI SDK') &&
        'AI SDK: `pruneMessages` driven to the budget — a ladder from least to most pruning (`reasoning: "all"`; then `toolCalls: "before-last-N-messages"` for N from the message count down to 2; then `"before-last-message"`; then `"all"`; `emptyMessages: "remove"` throughout), the first rung whose output fits (found by a binary search: each rung prunes what the one above it does and more); if none fits, the last rung, over budget.',
      report.strategies.some((strategy) => strategy.family === 'LangChain.js') &&
        'LangChain.js: `trimMessages({ strategy: "last", includeSystem: true, allowPartial: false, startOn })` with core\'s counter as `tokenCounter` (`startOn` in the row\'s name).',
    ]
      .filter((sentence): sentence is string => typeof sentence === 'string')
      .join(' '),
    '',
  ];
  for (const kind of [...new Set(report.summaries.map((summary) => summary.kind))]) {
    const summaries = report.summaries.filter((summary) => summary.kind === kind);
    const cuts = report.cutRecords.filter((cut) => cut.kind === kind);
    const needs = cuts.reduce((sum, cut) => sum + cut.needs, 0);
    lines.push(
      `### ${TITLES[kind]}: ${formatNumber(report.fixtures.conversations[kind] ?? 0)} conversations, ${formatNumber(cuts.length)} cuts, ${formatNumber(needs)} future needs`,
      '',
      futureNeedTable(summaries),
      '',
      "Pooled retention by identifier kind, and by the most lasting place the prefix held the identifier (the agent's prose over its tool-call arguments over tool output alone); needs in parentheses:",
      '',
      futureNeedByKindTable(summaries),
      '',
    );
  }
  lines.push(`![future-need retention against budget](${chartFile})`);
  return lines.join('\n');
}

/** The section of docs/benchmarks.md: a heading and the block record-docs can refresh alone. */
export function futureNeedSection(number: number, report: FutureNeedReport | { readonly skipped: string }, chartFile: string): string[] {
  const lines = [`## ${number}. Future-need retention: what the later steps need from a compacted prefix`, ''];
  const body = 'skipped' in report ? `Skipped: ${report.skipped}` : futureNeedBlock(report, chartFile);
  return [...lines, `<!-- recorded: ${FUTURE_NEED_BLOCK} -->`, body, '<!-- /recorded -->', ''];
}
