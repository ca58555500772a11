import { formatNumber, formatPercent } from '../markdown-table.js';
import type { FixtureKind } from '../fixture-set.js';
import type { FutureNeedReport } from './report.js';
import { futureNeedByKindTable, futureNeedProbeTable, futureNeedTable } from './table.js';

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
      'The compacted prefix (tool-call arguments decoded from JSON) is then searched for four kinds of probe of what the **later** steps need from it. No model is involved, and every strategy is probed the same way:',
    '',
    "- **A, names**: the identifiers the agent's later steps use — file paths, snake_case and camelCase names, error type names, read from the later assistant messages' prose and tool-call arguments — that the prefix's assistant/tool messages already held; identifiers any system or user message holds are left out (nothing may drop those). A name list satisfies A (see `names-list`), so A is a guard, not the measure.",
    "- **B, edit anchors**: the old code the edits after the cut name — `sed -i` patterns, `.replace(old, new)` old strings, `old_str` arguments, the lines of `cat > F <<EOF` bodies a prefix output of F showed, the final patch's removed and context lines of the files edited after the cut — where a prefix tool output showed it as a line (at least 15 characters).",
    '- **C, fact lines**: for each A name, the newest prefix tool-output line holding it that is at most 240 characters and has at least 8 characters besides its identifiers. **C at 25% is the headline.**',
    "- **D, error and test facts**: exception lines, test summaries (`N passed`, `Ran N tests`, `OK`, `FAILED (…)`) and the frames of the last traceback that later messages refer to (by the exception type or message, by speaking of tests, by the frame's path or function).",
    '',
    'B, C and D are lines (whitespace runs as one space), found when the compacted text holds them verbatim; none a system or user message holds is counted. ' +
      '**valid**: every tool result follows its call, no call lost its result, the system message and the first user message (the task) are kept unchanged, and every tool call whose arguments were shortened carries a 12-hex reference in them, over every cut and budget. ' +
      '**under**: outputs at or under each budget. **monotone breaks**: cuts where a tighter budget gave a larger output. Percentages are pooled (all retained / all available over the cuts; the medians over cuts are in the JSON); `—`: no probe of the kind (tau-bench has no edits).',
    '',
    [
      report.strategies.some((strategy) => strategy.family === 'ollm') &&
        'ollm: the pipeline through a `ProviderRegistry` and `compactWith` with `config.limit` = the budget.',
      report.strategies.some((strategy) => strategy.family === 'AI SDK') &&
        'AI SDK: `pruneMessages` driven to the budget — a ladder from least to most pruning (`reasoning: "all"`; then `toolCalls: "before-last-N-messages"` for N from the message count down to 2; then `"before-last-message"`; then `"all"`; `emptyMessages: "remove"` throughout), the first rung whose output fits (found by a binary search: each rung prunes what the one above it does and more); if none fits, the last rung, over budget.',
      report.strategies.some((strategy) => strategy.family === 'LangChain.js') &&
        'LangChain.js: `trimMessages({ strategy: "last", includeSystem: true, allowPartial: false, startOn })` with core\'s counter as `tokenCounter` (`startOn` in the row\'s name).',
      report.strategies.some((strategy) => strategy.family === 'baseline') &&
        'Baselines: `recency` keeps the system and user messages and the newest steps (a call with its results) that fit; `names-list` does that in half the budget and adds one message listing the A names of what it dropped — it keeps no fact, so what it scores on a probe kind is what listing names buys there.',
    ]
      .filter((sentence): sentence is string => typeof sentence === 'string')
      .join(' '),
    '',
  ];
  for (const kind of [...new Set(report.summaries.map((summary) => summary.kind))]) {
    const summaries = report.summaries.filter((summary) => summary.kind === kind);
    const cuts = report.cutRecords.filter((cut) => cut.kind === kind);
    const needs = cuts.reduce((sum, cut) => sum + cut.needs, 0);
    const probes = (probe: 'B' | 'C' | 'D') => formatNumber(cuts.reduce((sum, cut) => sum + (cut.probes?.[probe] ?? 0), 0));
    lines.push(
      `### ${TITLES[kind]}: ${formatNumber(report.fixtures.conversations[kind] ?? 0)} conversations, ${formatNumber(cuts.length)} cuts, ${formatNumber(needs)} future needs (A), ${probes('B')} edit anchors (B), ${probes('C')} fact lines (C), ${probes('D')} error and test facts (D)`,
      '',
      futureNeedTable(summaries),
      '',
      'Pooled retention of each probe kind at each budget (probes at the cuts in parentheses):',
      '',
      futureNeedProbeTable(summaries),
      '',
      "A: pooled retention by identifier kind, and by the most lasting place the prefix held the identifier (the agent's prose over its tool-call arguments over tool output alone); needs in parentheses:",
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
