/**
 * `pnpm run docs` (from the repository root: builds, then runs this; `run` is needed, as
 * `pnpm docs` is pnpm's own command) or `pnpm --filter @ollm/bench run docs`:
 * reruns everything the docs show as real output and rewrites only the blocks it owns, between
 * `<!-- recorded: NAME -->` and `<!-- /recorded -->`, in docs/cli.md, docs/runtime.md and
 * docs/benchmarks.md (the future-need block, and docs/benchmarks-future-need.svg beside it).
 *
 *   node internal/bench/dist/docs/record-docs.js [--binary PATH] [--before-binary PATH] [--check] [--only benchmarks|serve|middleware]
 *
 * `--binary`: the `ollm` build to record (default apps/cli/dist/bin.js). `--before-binary`: a build
 * of the version before the window rule, for the "before" rows of docs/runtime.md's table (kept as
 * they are without it). `--check`: write nothing; exit 1 if a doc would change. `--only benchmarks`:
 * only docs/benchmarks.md's future-need block and its chart (a few seconds; no `ollm` build needed).
 * `--only serve`: only docs/benchmarks.md's serve block (`ollm serve`'s added latency and
 * throughput, measured again in full mode: about a minute and a half). `--only middleware`: only
 * docs/benchmarks.md's middleware block (the AI SDK's and LangChain's context middlewares per agent
 * step, measured again in full mode: about a minute). Their figures are times, so every recording
 * changes them: the other runs leave those blocks alone, and `--check` with one only says the block
 * would change.
 * The future-need block reads the default fixtures (../shared/fixtures when it is there).
 *
 * Everything runs against the loopback fake model server and the shipped fixtures, in a
 * throwaway HOME; the chat runs with a fixed clock and counted ids (fixed-clock.ts), so a second
 * run leaves the docs unchanged.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { recordChatWindowTable } from './chat-window-table.js';
import { recordChatSession, recordOverflow, type RequestFigures } from './chat-session-recording.js';
import { recordCompactSummaries, recordDigests, recordJsonReport, recordMultiJsonReport, recordStats } from './compact-examples.js';
import { fenced, readBlock, replaceBlocks, type BlockContent } from './doc-blocks.js';
import { renderFutureNeedChart } from '../future-need/chart.js';
import { measureFutureNeed } from '../future-need/report.js';
import { FUTURE_NEED_BLOCK, futureNeedBlock } from '../future-need/section.js';
import { FUTURE_NEED_CHART } from '../render-benchmarks.js';
import { SERVE_BLOCK, serveBlock } from '../serve/render-serve.js';
import { runServeWorkloads } from '../serve/run-serve.js';
import { FULL_SERVE_MODE } from '../serve/serve-mode.js';
import { FULL_MIDDLEWARE_MODE } from '../middleware/middleware-mode.js';
import { MIDDLEWARE_BLOCK, middlewareBlock } from '../middleware/render-middleware.js';
import { runMiddlewareWorkloads } from '../middleware/run-middleware.js';
import { REPOSITORY } from './run-ollm.js';

const { values } = parseArgs({
  options: {
    binary: { type: 'string', default: join(REPOSITORY, 'apps/cli/dist/bin.js') },
    'before-binary': { type: 'string' },
    check: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
if (values.only !== undefined && values.only !== 'benchmarks' && values.only !== 'serve' && values.only !== 'middleware') {
  process.stderr.write(`record-docs: --only takes "benchmarks", "serve" or "middleware", not "${values.only}"\n`);
  process.exit(2);
}
const benchmarksOnly = values.only === 'benchmarks';
const serveOnly = values.only === 'serve';
const middlewareOnly = values.only === 'middleware';
const binary = values.binary;
if (!benchmarksOnly && !serveOnly && !middlewareOnly && !existsSync(binary)) {
  process.stderr.write(`record-docs: ${binary} is not built; run \`pnpm build\` (or \`pnpm run docs\`, which builds first)\n`);
  process.exit(2);
}

const step = async <T>(what: string, work: () => Promise<T>): Promise<T> => {
  const started = performance.now();
  process.stderr.write(`record-docs: ${what}…`);
  const result = await work();
  process.stderr.write(` ${Math.round(performance.now() - started)} ms\n`);
  return result;
};

/** docs/cli.md and docs/runtime.md: the recorded `ollm` runs. */
async function recordCliAndRuntime(): Promise<[string, Record<string, BlockContent>][]> {
  const chat = await step('the chat session', () => recordChatSession(binary));
  if (chat.exitCode !== 0) throw new Error(`the recorded chat exited ${chat.exitCode}:\n${chat.transcript}`);
  const overflow = await step('a message too large for the window', () => recordOverflow(binary));
  const compactSummaries = await step('ollm compact', () => recordCompactSummaries(binary));
  const jsonReport = await step('ollm compact --json', () => recordJsonReport(binary));
  const multiJsonReport = await step('ollm compact --json (tau-bench)', () => recordMultiJsonReport(binary));
  const stats = await step('ollm stats', () => recordStats(binary));
  const digests = await step('ollm digest', () => recordDigests(binary));

  const afterwards = (prefix: string) =>
    chat.afterwards
      .filter((run) => run.command.startsWith(prefix))
      .map((run) => `$ ${run.command}\n${run.output.trimEnd()}`)
      .join('\n');

  const cliBlocks: Record<string, BlockContent> = {
    'chat-input': fenced(chat.input.join('\n')),
    'chat-session': fenced(chat.transcript),
    'chat-requests': requestsTable(chat.requests),
    'chat-overflow': fenced(overflow),
    'compact-summaries': fenced(compactSummaries),
    'compact-json': fenced(jsonReport, 'json'),
    'compact-json-conversations': fenced(multiJsonReport, 'json'),
    stats: fenced(stats),
    digest: fenced(digests),
    sessions: fenced(afterwards('ollm sessions')),
    snapshots: fenced(afterwards('ollm snapshot')),
  };

  const runtimePath = join(REPOSITORY, 'docs/runtime.md');
  const previousTable = readBlock(readFileSync(runtimePath, 'utf8'), 'chat-window');
  const table = await step('the scripted chat at three windows (chat-window)', () =>
    recordChatWindowTable(binary, values['before-binary'], 'before', previousTable),
  );
  return [
    ['docs/cli.md', cliBlocks],
    ['docs/runtime.md', { 'chat-window': table }],
  ];
}

/** docs/benchmarks.md's future-need block and the chart beside it (deterministic: no times in either). */
async function recordBenchmarks(): Promise<{ blocks: [string, Record<string, BlockContent>]; chart: string }> {
  const report = await step('future-need retention (future-need)', () => measureFutureNeed());
  return {
    blocks: ['docs/benchmarks.md', { [FUTURE_NEED_BLOCK]: futureNeedBlock(report, FUTURE_NEED_CHART) }],
    chart: renderFutureNeedChart(report.summaries),
  };
}

/** docs/benchmarks.md's serve block: `ollm serve` against the fake model server, measured now. */
async function recordServe(): Promise<[string, Record<string, BlockContent>]> {
  const report = await step('ollm serve: added latency and throughput (serve)', () => runServeWorkloads(FULL_SERVE_MODE, () => {}));
  return ['docs/benchmarks.md', { [SERVE_BLOCK]: serveBlock(report) }];
}

/** docs/benchmarks.md's middleware block: both frameworks' agent loops against the fake model server, measured now. */
async function recordMiddleware(): Promise<[string, Record<string, BlockContent>]> {
  const report = await step('middlewares: overhead per agent step (middleware)', () => runMiddlewareWorkloads(FULL_MIDDLEWARE_MODE, () => {}));
  return ['docs/benchmarks.md', { [MIDDLEWARE_BLOCK]: middlewareBlock(report) }];
}

const benchmarks = serveOnly || middlewareOnly ? undefined : await recordBenchmarks();
const documents = serveOnly
  ? [await recordServe()]
  : middlewareOnly
    ? [await recordMiddleware()]
    : [...(benchmarksOnly ? [] : await recordCliAndRuntime()), benchmarks!.blocks];

let changed = 0;
for (const [file, blocks] of documents) {
  const path = join(REPOSITORY, file);
  const text = readFileSync(path, 'utf8');
  const next = replaceBlocks(text, blocks, file);
  if (next === text) {
    process.stderr.write(`record-docs: ${file} unchanged\n`);
    continue;
  }
  changed += 1;
  if (values.check) process.stderr.write(`record-docs: ${file} is out of date (run: pnpm run docs)\n`);
  else {
    writeFileSync(path, next);
    process.stderr.write(`record-docs: ${file} updated\n`);
  }
}
const chartPath = join(REPOSITORY, 'docs', FUTURE_NEED_CHART);
// --only serve and --only middleware record no chart.
const chart = benchmarks?.chart;
if (chart === undefined || (existsSync(chartPath) ? readFileSync(chartPath, 'utf8') : '') === chart) {
  if (chart !== undefined) process.stderr.write(`record-docs: docs/${FUTURE_NEED_CHART} unchanged\n`);
} else {
  changed += 1;
  if (values.check) process.stderr.write(`record-docs: docs/${FUTURE_NEED_CHART} is out of date (run: pnpm run docs)\n`);
  else {
    writeFileSync(chartPath, chart);
    process.stderr.write(`record-docs: docs/${FUTURE_NEED_CHART} updated\n`);
  }
}
if (values.check && changed > 0) process.exitCode = 1;

/** What the fake server received during the recorded chat. */
function requestsTable(figures: RequestFigures): string {
  const integer = (value: number) => value.toLocaleString('en-US');
  return [
    '| requests the fake server received | count | largest prompt | limit it must fit | reply limit sent |',
    '|---|--:|--:|--:|--:|',
    `| chat replies | ${figures.replies} | ${integer(figures.largestReply)} | ${integer(figures.requestLimit)} (${integer(figures.window)} less ${integer(figures.replyReserve)}) | ${integer(figures.replyReserve)} on ${figures.repliesWithReserve} of ${figures.replies} |`,
    `| goal-aware summaries | ${figures.summaries} | ${integer(figures.largestSummaryPrompt)} | ${integer(figures.window - figures.largestSummaryOutput)} (${integer(figures.window)} less the reply limit) | ${integer(figures.largestSummaryOutput)} |`,
  ].join('\n');
}
