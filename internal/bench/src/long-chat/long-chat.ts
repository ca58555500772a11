/**
 * `node internal/bench/dist/long-chat/long-chat.js [--fixtures DIR] [--budgets 50,25,10] [--strategy NAME ...] [--json]`
 *
 * Long-chat retention on LoCoMo: each chat (all its sessions) is compacted to each budget (a share
 * of its o200k tokens) by each strategy; for each question of categories 1-4 the compacted context
 * is searched for its evidence turns (verbatim, whitespace collapsed) and its answer (normalised
 * substring; only answers the full chat holds are counted). Strategies: `fold`, `trim` (or any ollm
 * pipeline), `langchain`, `langchain-human`, `ai-sdk`, `recency`; default fold, trim, langchain,
 * ai-sdk, recency. The fixtures default to ../shared/fixtures/locomo-sample (CC BY-NC: read from
 * there, never copied). No model is called.
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { formatNumber, formatPercent, markdownTable } from '../markdown-table.js';
import { ANSWERED_CATEGORIES, measureLongChat, type LongChatReport, type PresenceCounts } from './measure.js';

/** `50,25,10` (percent) or `0.5,0.25,0.1` as shares. */
export function parseBudgets(text: string): number[] {
  return text.split(',').map((entry) => {
    const value = Number(entry.trim());
    const share = value >= 1 ? value / 100 : value;
    if (entry.trim() === '' || !Number.isFinite(value) || share <= 0 || share >= 1)
      throw new Error(`--budgets: "${entry}" is not a percentage between 0 and 100`);
    return share;
  });
}

function answers(counts: PresenceCounts): string {
  return counts.answersCounted === 0
    ? '—'
    : `${formatPercent(counts.answersPresent / counts.answersCounted)} (${counts.answersPresent}/${counts.answersCounted})`;
}

function evidence(counts: PresenceCounts): string {
  return counts.evidenceQuestions === 0 ? '—' : `${formatPercent(counts.evidenceShareSum / counts.evidenceQuestions)} (all: ${counts.evidenceComplete})`;
}

export function longChatTable(report: LongChatReport): string {
  const headers = [
    'strategy',
    'budget',
    'tokens after (median)',
    'after / limit (median, max)',
    'under budget',
    'evidence present (questions with all of it)',
    'answers present',
    ...ANSWERED_CATEGORIES.map((category) => `answers, cat. ${category}`),
  ];
  const rows = report.summaries.map((summary) => [
    summary.strategy,
    `${Math.round(summary.budget * 100)}%`,
    formatNumber(summary.tokensAfterMedian),
    `${formatNumber(summary.ratioMedian, 2)}, ${formatNumber(summary.ratioMax, 2)}`,
    `${summary.underBudget}/${summary.chats}`,
    evidence(summary.presence),
    answers(summary.presence),
    ...ANSWERED_CATEGORIES.map((category) => answers(summary.byCategory[String(category)]!)),
  ]);
  return markdownTable(headers, rows, 'lrrrrrrrrrr');
}

/** Evidence present by category (mean share of each question's evidence turns). */
export function longChatEvidenceTable(report: LongChatReport): string {
  const headers = ['strategy', 'budget', ...ANSWERED_CATEGORIES.map((category) => `evidence, cat. ${category}`)];
  const rows = report.summaries.map((summary) => [
    summary.strategy,
    `${Math.round(summary.budget * 100)}%`,
    ...ANSWERED_CATEGORIES.map((category) => {
      const counts = summary.byCategory[String(category)]!;
      return counts.evidenceQuestions === 0 ? '—' : `${formatPercent(counts.evidenceShareSum / counts.evidenceQuestions)} (${counts.evidenceQuestions} q.)`;
    }),
  ]);
  return markdownTable(headers, rows, 'lrrrrr');
}

export function fixtureLines(report: LongChatReport): string[] {
  return report.fixtures.map(
    (chat) =>
      `- chat ${chat.id}: ${chat.sessions} sessions, ${formatNumber(chat.messages)} messages, ${formatNumber(chat.tokens)} tokens (system and user messages ${formatPercent(chat.systemAndUserTokens / chat.tokens)}); ` +
      `${chat.questions} questions of categories 1-4 (${chat.evidenceQuestions} with evidence), ` +
      `${chat.answersInFullChat} with their answer in the full chat (counted), ${chat.answersOutsideEvidence} of those also outside their evidence turns` +
      (chat.unresolvedEvidence.length > 0 ? `; evidence naming no turn: ${chat.unresolvedEvidence.join(', ')}` : '') +
      (chat.sameSpeakerRuns > 0 ? `; ${chat.sameSpeakerRuns} turns by the speaker of the turn before (kept as separate messages)` : ''),
  );
}

export function renderLongChat(report: LongChatReport): string {
  const lines = [
    `LoCoMo long-chat retention${report.folder ? ` (${report.folder})` : ''}:`,
    '',
    ...fixtureLines(report),
    '',
    longChatTable(report),
    '',
    longChatEvidenceTable(report),
    '',
  ];
  lines.push(
    "A run over its budget keeps more than the budget allows: its retention is not comparable with an under-budget run's (the input unchanged scores 100%).",
    '',
  );
  const breaks = report.monotonicityBreaks;
  lines.push(
    breaks.length === 0
      ? 'Monotonicity: no output at a smaller budget is larger than at a larger one.'
      : `Monotonicity breaks (output larger at the smaller budget): ${breaks
          .map(
            (entry) =>
              `${entry.strategy} on ${entry.chat}: ${entry.tokensAtSmaller} tokens at ${Math.round(entry.smallerBudget * 100)}% > ${entry.tokensAtLarger} at ${Math.round(entry.largerBudget * 100)}%`,
          )
          .join('; ')}`,
  );
  const failed = report.runs.filter((run) => run.error !== undefined);
  if (failed.length > 0)
    lines.push(`Failed runs (input kept): ${failed.map((run) => `${run.strategy} ${run.chat} ${Math.round(run.budget * 100)}%: ${run.error}`).join('; ')}`);
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  // `pnpm long-chat -- --json` passes the `--` on.
  const args = process.argv.slice(2);
  const { values } = parseArgs({
    args: args[0] === '--' ? args.slice(1) : args,
    options: {
      fixtures: { type: 'string' },
      budgets: { type: 'string', default: '50,25,10' },
      strategy: { type: 'string', multiple: true },
      json: { type: 'boolean', default: false },
    },
  });
  const report = await measureLongChat({
    ...(values.fixtures ? { fixtures: values.fixtures } : {}),
    budgets: parseBudgets(values.budgets),
    ...(values.strategy ? { strategies: values.strategy } : {}),
    onRun: (run, done, total) =>
      process.stderr.write(
        `[long-chat] ${done}/${total} ${run.strategy} chat ${run.chat} ${Math.round(run.budget * 100)}%: ${run.tokensAfter}/${run.limit} in ${run.seconds.toFixed(2)} s\n`,
      ),
  });
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 1)}\n` : renderLongChat(report));
  process.stderr.write(`[long-chat] ${report.seconds.toFixed(1)} s\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await main();
  } catch (error) {
    process.stderr.write(`long-chat: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
