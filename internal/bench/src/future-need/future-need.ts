/**
 * `pnpm --filter @ollm/bench future-need [--strategy PIPELINE ...] [--budgets 50,25,10] [--cuts 50,80]
 *   [--fixtures DIR] [--files N] [--tau-bench] [--json] [--chart FILE.svg]`
 *
 * Future-need retention: each SWE-agent trajectory is cut after 50% and 80% of its steps, the
 * prefix is compacted to each budget (a share of its own tokens) by each strategy, and the
 * compacted prefix is searched for what the later steps need from it: A, the identifiers the
 * later steps use that the prefix's assistant/tool messages held (future-needs.ts); B, the old
 * code lines the later edits name; C, the newest output line holding each A name; D, the error
 * and test lines later messages refer to (fact-probes.ts). Prints the markdown table (A-D, valid,
 * monotone breaks), A-D at each budget, and A's retention by identifier kind.
 *
 * `--strategy` takes any ollm pipeline of the registered providers (`mask,code-aware,trim`), a
 * peer: `ai-sdk` (pruneMessages driven to the budget), `langchain` (trimMessages, startOn
 * human/ai), `langchain-human` (startOn human); or a baseline: `recency`, `names-list`
 * (baselines.ts). Repeat it for several; the default is defaults.ts' DEFAULT_STRATEGY_NAMES
 * (`fold`, `mask,code-aware,trim`, `trim`, `recency`, `names-list`, `ai-sdk`, `langchain`). `--files N`: the N smallest trajectories
 * only; `--tau-bench`: the tau-bench dialogs of the folder too; `--json`: the raw report instead;
 * `--chart`: also write the retention-against-budget SVG. No model is called.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { renderFutureNeedChart } from './chart.js';
import { measureFutureNeed } from './report.js';
import { futureNeedByKindTable, futureNeedProbeTable, futureNeedTable } from './table.js';

/** `50,25,10` (percent) or `0.5,0.25,0.1` as shares. */
export function parseShares(text: string, what: string): number[] {
  const shares = text.split(',').map((entry) => {
    const value = Number(entry.trim());
    const share = value > 1 ? value / 100 : value;
    if (entry.trim() === '' || !Number.isFinite(value) || share <= 0 || share >= 1)
      throw new Error(`--${what}: "${entry}" is not a percentage between 0 and 100`);
    return share;
  });
  return shares;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      strategy: { type: 'string', multiple: true },
      budgets: { type: 'string', default: '50,25,10' },
      cuts: { type: 'string', default: '50,80' },
      fixtures: { type: 'string' },
      files: { type: 'string' },
      'tau-bench': { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
      chart: { type: 'string' },
    },
  });
  const files = values.files === undefined ? undefined : Number(values.files);
  if (files !== undefined && !(Number.isInteger(files) && files > 0)) throw new Error(`--files: "${values.files}" is not a positive whole number`);
  const started = performance.now();
  const report = await measureFutureNeed({
    ...(values.strategy ? { strategies: values.strategy } : {}),
    budgets: parseShares(values.budgets, 'budgets'),
    cuts: parseShares(values.cuts, 'cuts'),
    ...(values.fixtures ? { fixtures: values.fixtures } : {}),
    ...(files !== undefined ? { maximumSweAgentFiles: files } : {}),
    tauBench: values['tau-bench'],
    onConversation: (done, total, id) => process.stderr.write(`[future-need] ${done}/${total} ${id}\n`),
    onWarning: (message) => process.stderr.write(`[future-need] warning: ${message}\n`),
  });
  const { summaries } = report;
  if (values.chart) writeFileSync(values.chart, renderFutureNeedChart(summaries));
  if (values.json) {
    process.stdout.write(`${JSON.stringify(report, null, 1)}\n`);
    return;
  }
  const cuts = report.cuts.map((cut) => `${Math.round(cut * 100)}%`).join(' and ');
  const lines: string[] = [];
  for (const kind of [...new Set(summaries.map((summary) => summary.kind))]) {
    const ofKind = summaries.filter((summary) => summary.kind === kind);
    const conversations = report.fixtures.conversations[kind] ?? 0;
    lines.push(
      `${kind}: ${conversations} conversations from ${report.fixtures.folder}, cut after ${cuts} of their steps (${ofKind[0]!.byBudget[0]!.cuts} cuts)`,
      '',
    );
    lines.push(
      futureNeedTable(ofKind),
      '',
      'Pooled retention of each probe kind at each budget (probes at the cuts in parentheses):',
      '',
      futureNeedProbeTable(ofKind),
      '',
      'A: pooled retention by identifier kind and by where the prefix held it:',
      '',
      futureNeedByKindTable(ofKind),
      '',
    );
    for (const summary of ofKind) {
      const failed = report.cases.filter((entry) => entry.kind === kind && entry.strategy === summary.strategy && entry.error !== undefined);
      // A failed run leaves its input unchanged (as a host would): over budget, every need kept.
      if (failed.length > 0) lines.push(`${summary.strategy}: ${failed.length}/${summary.cases} runs failed (input kept): ${failed[0]!.error}`, '');
    }
  }
  process.stdout.write(lines.join('\n'));
  process.stderr.write(`[future-need] ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    await main();
  } catch (error) {
    process.stderr.write(`future-need: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
