import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TokenCounter, computeSourceDigest, createTokenizer } from '@ollm/core';
import codeAware from '@ollm/plugin-code-aware';
import goalAware from '@ollm/plugin-goal-aware';
import mask from '@ollm/plugin-mask';
import trim from '@ollm/plugin-trim';
import type { BenchMode, FutureNeedMode } from './bench-mode.js';
import type { BenchReport } from './bench-report.js';
import { measureCompactMemory } from './compact-memory-workload.js';
import { summarizeCompaction } from './compaction-summary.js';
import { runCompactionWorkload } from './compaction-workload.js';
import { REPOSITORY_ROOT, allConversations, defaultFixtureFolder, loadFixtures, type BenchConversation } from './fixture-set.js';
import { renderFutureNeedChart } from './future-need/chart.js';
import { futureNeedReport } from './future-need/report.js';
import { runGoalAwareSession } from './goal-aware-workload.js';
import { readBlock, replaceBlocks } from './docs/doc-blocks.js';
import { DEFAULT_LOCOMO_FOLDER, measureLongChat } from './long-chat/measure.js';
import { measurePromptCache } from './prompt-cache/measure.js';
import { describeMachine } from './machine.js';
import { median, timeSync } from './measure.js';
import { MIDDLEWARE_BLOCK, middlewareSection } from './middleware/render-middleware.js';
import { runMiddlewareWorkloads } from './middleware/run-middleware.js';
import { FUTURE_NEED_CHART, renderBenchmarks } from './render-benchmarks.js';
import { measureSessionHistory } from './session-history-workload.js';
import { runServeWorkloads } from './serve/run-serve.js';
import { SERVE_BLOCK, serveSection } from './serve/render-serve.js';
import { createStrategies } from './strategies.js';
import { renderScalingChart } from './speed/scaling-chart.js';
import { runSpeedWorkloads } from './speed/run-speed.js';
import { SCALING_CHART, renderSpeedSection } from './speed/render-speed.js';
import type { SpeedPart, SpeedReport } from './speed/speed-report.js';
import { measureColdCounts, measureIncrementalCost } from './token-accounting-workload.js';
import { renderTradeoffChart } from './tradeoff-chart.js';

export function progress(text: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${text}\n`);
}

function largestOf(conversations: readonly BenchConversation[]): { conversation: BenchConversation; tokens: number } {
  const counter = new TokenCounter(createTokenizer('o200k_base'));
  const sized = conversations
    .filter((entry) => entry.kind === 'swe-agent')
    .map((conversation) => ({ conversation, tokens: counter.countMessages(conversation.messages) }));
  const pool = sized.length > 0 ? sized : conversations.map((conversation) => ({ conversation, tokens: counter.countMessages(conversation.messages) }));
  return pool.reduce((best, entry) => (entry.tokens > best.tokens ? entry : best));
}

/** The conversations future-need measures: SWE-agent (the smallest N when limited), then tau-bench. */
function futureNeedConversations(conversations: readonly BenchConversation[], mode: FutureNeedMode): BenchConversation[] {
  let swe = conversations.filter((conversation) => conversation.kind === 'swe-agent');
  if (mode.maximumSweAgentFiles !== undefined) {
    const kept = new Set([...swe].sort((a, b) => a.messages.length - b.messages.length).slice(0, mode.maximumSweAgentFiles));
    swe = swe.filter((conversation) => kept.has(conversation));
  }
  const tau = conversations.filter((conversation) => conversation.kind === 'tau-bench').slice(0, mode.maximumTauBenchRuns);
  return [...swe, ...tau];
}

async function runFutureNeedWorkload(
  mode: BenchMode,
  conversations: readonly BenchConversation[],
  fixtures: { folder: string; origin: BenchReport['fixtures']['origin'] },
): Promise<BenchReport['futureNeed']> {
  if (!mode.futureNeed) return { skipped: `not part of ${mode.name} mode` };
  const chosen = futureNeedConversations(conversations, mode.futureNeed);
  if (chosen.length === 0) return { skipped: 'no SWE-agent or tau-bench conversations' };
  progress(
    `future-need retention: ${chosen.length} conversations, ${mode.futureNeed.strategies.length} strategies, cuts ${mode.futureNeed.cuts.join('/')}, budgets ${mode.futureNeed.budgets.join('/')}`,
  );
  return futureNeedReport(chosen, fixtures, mode.futureNeed);
}

/** The prompt-cache section: in a mode that has it (no fixtures: the task is generated). */
export async function runPromptCacheWorkload(mode: Pick<BenchMode, 'name' | 'promptCache'>): Promise<BenchReport['promptCache']> {
  if (!mode.promptCache) return { skipped: `not part of ${mode.name} mode` };
  const { steps, windows } = mode.promptCache;
  progress(`prompt cache: a ${steps}-step agent loop at ${windows.join(', ')} tokens`);
  return measurePromptCache({ steps, windows });
}

/** Why the long-chat section is skipped at `folder`, or undefined when it holds LoCoMo samples. */
function locomoMissing(folder: string): string | undefined {
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    return `no LoCoMo samples at ${folder} (CC BY-NC: read from ../shared/fixtures only, never copied into the repository)`;
  if (!readdirSync(folder).some((name) => name.endsWith('.json'))) return `no LoCoMo samples (*.json) in ${folder}`;
  return undefined;
}

/** The long-chat section: in a mode that has it, when the LoCoMo folder is there; else skipped with the reason. */
export async function runLongChatWorkload(mode: Pick<BenchMode, 'name' | 'longChat'>): Promise<BenchReport['longChat']> {
  if (!mode.longChat) return { skipped: `not part of ${mode.name} mode` };
  const { strategies, budgets, folder = DEFAULT_LOCOMO_FOLDER } = mode.longChat;
  const missing = locomoMissing(folder);
  if (missing !== undefined) return { skipped: missing };
  progress(`long chats (LoCoMo, ${folder}): ${strategies.join(', ')}; budgets ${budgets.join('/')}`);
  return measureLongChat({ fixtures: folder, budgets, strategies });
}

async function loadModeFixtures(mode: BenchMode, fixtureFolder: string | undefined) {
  const location = fixtureFolder ? { folder: resolve(fixtureFolder), origin: 'given' as const } : defaultFixtureFolder();
  const set = await loadFixtures({
    ...location,
    ...(mode.maximumSweAgentFiles !== undefined ? { maximumSweAgentFiles: mode.maximumSweAgentFiles } : {}),
    ...(mode.maximumTauBenchRuns !== undefined ? { maximumTauBenchRuns: mode.maximumTauBenchRuns } : {}),
  });
  const conversations = allConversations(set);
  if (conversations.length === 0) throw new Error(`No SWE-agent or tau-bench transcripts under ${location.folder}.`);
  return { set, conversations };
}

async function runSpeed(
  mode: BenchMode,
  conversations: readonly BenchConversation[],
  folder: string,
  parts?: ReadonlySet<SpeedPart>,
): Promise<BenchReport['speed']> {
  if (!mode.speed) return { skipped: `not part of ${mode.name} mode` };
  return runSpeedWorkloads(mode.speed, { conversations, folder, progress, ...(parts ? { parts } : {}) });
}

async function runServe(mode: BenchMode): Promise<BenchReport['serve']> {
  if (!mode.serve) return { skipped: `not part of ${mode.name} mode` };
  return runServeWorkloads(mode.serve, progress);
}

async function runMiddleware(mode: BenchMode): Promise<BenchReport['middleware']> {
  if (!mode.middleware) return { skipped: `not part of ${mode.name} mode` };
  return runMiddlewareWorkloads(mode.middleware, progress);
}

export async function runBench(mode: BenchMode, fixtureFolder?: string): Promise<BenchReport> {
  const started = process.hrtime.bigint();
  const machine = describeMachine();
  const { set, conversations } = await loadModeFixtures(mode, fixtureFolder);
  const pool = conversations.flatMap((conversation) => conversation.messages);
  progress(`${mode.name} mode: ${conversations.length} conversations, ${pool.length} messages from ${set.folder}`);

  progress('token accounting');
  const coldCounts = measureColdCounts(set, mode.coldCountRepetitions);
  const incremental = measureIncrementalCost(pool, mode.appendSizes, mode.appendsPerSize);

  const strategies = createStrategies();
  const largest = largestOf(conversations);
  progress(`compaction: the largest transcript ${largest.conversation.id} (${largest.tokens} tokens), ${mode.largestRepetitions} runs each`);
  const largestCases = await runCompactionWorkload([largest.conversation], strategies, { targets: mode.targets, repetitions: mode.largestRepetitions });
  progress(`compaction: ${conversations.length - 1} more conversations`);
  const otherCases = await runCompactionWorkload(
    conversations.filter((conversation) => conversation !== largest.conversation),
    strategies,
    {
      targets: mode.targets,
      repetitions: mode.compactionRepetitions,
      onConversation: (done, total) => done % 25 === 0 && progress(`compaction ${done}/${total}`),
    },
  );
  const cases = [...largestCases, ...otherCases];
  const digestTimes = Array.from({ length: mode.largestRepetitions }, () => timeSync(() => computeSourceDigest(largest.conversation.messages)));

  const futureNeed = await runFutureNeedWorkload(mode, conversations, { folder: set.folder, origin: set.origin });
  const longChat = await runLongChatWorkload(mode);
  const promptCache = await runPromptCacheWorkload(mode);

  const sweConversations = conversations.filter((conversation) => conversation.kind === 'swe-agent');
  let goalAwareResult: BenchReport['goalAware'];
  if (sweConversations.length === 0) goalAwareResult = { skipped: 'no SWE-agent transcripts to draw turns from' };
  else {
    const sessions = [];
    for (const pipeline of mode.goalAwarePipelines) {
      progress(`goal-aware session: ${mode.goalAwareTurns} turns, ${pipeline}`);
      sessions.push(
        await runGoalAwareSession(goalAware, sweConversations, {
          turns: mode.goalAwareTurns,
          contextSize: mode.goalAwareContextSize,
          pipeline,
          providers: [mask, codeAware, trim],
        }),
      );
    }
    goalAwareResult = sessions;
  }

  progress('session history');
  const sessionHistory = measureSessionHistory(pool, mode.historySizes, mode.historyAppends);
  progress(`ollm compact memory (${mode.compactScale}x ${largest.conversation.id})`);
  const compactMemory = measureCompactMemory(largest.conversation, mode.compactScale);

  const speed = await runSpeed(mode, conversations, set.folder);
  const serve = await runServe(mode);
  const middleware = await runMiddleware(mode);

  return {
    mode: mode.name,
    date: new Date().toISOString(),
    durationSeconds: Number(process.hrtime.bigint() - started) / 1e9,
    machine,
    fixtures: { folder: set.folder, origin: set.origin, files: set.files.map((file) => ({ file: file.file, conversations: file.conversations.length })) },
    tokenAccounting: { coldCounts, incremental },
    compaction: {
      targets: mode.targets,
      repetitions: mode.compactionRepetitions,
      summaries: summarizeCompaction(cases),
      largest: {
        conversation: largest.conversation.id,
        tokensBefore: largest.tokens,
        repetitions: mode.largestRepetitions,
        sourceDigestMs: median(digestTimes),
        cases: largestCases,
      },
      cases,
    },
    goalAware: goalAwareResult,
    sessionHistory,
    compactMemory,
    futureNeed,
    longChat,
    promptCache,
    speed,
    serve,
    middleware,
  };
}

/** What `--only speed[:PART,…]`, `--only serve` or `--only middleware` measured: that section alone. */
export interface PartialBenchReport {
  readonly mode: BenchReport['mode'];
  readonly date: string;
  readonly durationSeconds: number;
  readonly machine: BenchReport['machine'];
  /** The fixtures the speed section read (the serve and middleware sections read none). */
  readonly fixtures?: { readonly folder: string; readonly origin: BenchReport['fixtures']['origin'] };
  readonly speed?: BenchReport['speed'];
  readonly serve?: BenchReport['serve'];
  readonly middleware?: BenchReport['middleware'];
}

/** Only the speed section (all of it, or the parts named): for working on it without the minutes the rest takes. */
export async function runSpeedOnly(mode: BenchMode, parts: ReadonlySet<SpeedPart>, fixtureFolder?: string): Promise<PartialBenchReport> {
  const started = process.hrtime.bigint();
  const machine = describeMachine();
  const { set, conversations } = await loadModeFixtures(mode, fixtureFolder);
  progress(`${mode.name} mode, speed only (${[...parts].join(', ')}): ${conversations.length} conversations from ${set.folder}`);
  const speed = await runSpeed(mode, conversations, set.folder, parts);
  return {
    mode: mode.name,
    date: new Date().toISOString(),
    durationSeconds: Number(process.hrtime.bigint() - started) / 1e9,
    machine,
    fixtures: { folder: set.folder, origin: set.origin },
    speed,
  };
}

/** Only the serve section: `ollm serve` against the fake model server (no fixtures read). */
export async function runServeOnly(mode: BenchMode): Promise<PartialBenchReport> {
  const started = process.hrtime.bigint();
  const machine = describeMachine();
  progress(`${mode.name} mode, serve only`);
  const serve = await runServe(mode);
  return { mode: mode.name, date: new Date().toISOString(), durationSeconds: Number(process.hrtime.bigint() - started) / 1e9, machine, serve };
}

/** Only the middleware section: the AI SDK's and LangChain's agent loops against the fake model server (no fixtures read). */
export async function runMiddlewareOnly(mode: BenchMode): Promise<PartialBenchReport> {
  const started = process.hrtime.bigint();
  const machine = describeMachine();
  progress(`${mode.name} mode, middleware only`);
  const middleware = await runMiddleware(mode);
  return { mode: mode.name, date: new Date().toISOString(), durationSeconds: Number(process.hrtime.bigint() - started) / 1e9, machine, middleware };
}

function measuredSpeed(speed: BenchReport['speed']): SpeedReport | undefined {
  return speed !== undefined && !('skipped' in speed) ? speed : undefined;
}

function scalingChartOf(speed: SpeedReport): string | undefined {
  if (!speed.scaling) return undefined;
  return renderScalingChart(speed.scaling.points, new Map(speed.contenders.map((contender) => [contender.name, contender.label] as const)));
}

/** A partial run never touches docs/: bench/results/partial.json, partial.md and partial-scaling.svg. */
export function writePartialReport(report: PartialBenchReport, root = REPOSITORY_ROOT): { json: string; markdown: string; chart?: string } {
  const results = join(root, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  const files = { json: join(results, 'partial.json'), markdown: join(results, 'partial.md'), chart: join(results, 'partial-scaling.svg') };
  writeFileSync(files.json, `${JSON.stringify(report, rounded, 1)}\n`);
  const header = [
    '# Benchmarks (partial run)',
    '',
    `\`--only\` run (${report.mode} mode, ${Math.round(report.durationSeconds)} s) on ${report.date}; load average at the start ${report.machine.loadAverage.join(' / ')}.${report.fixtures ? ` Fixtures: \`${report.fixtures.folder}\`.` : ''}`,
    '',
  ];
  const sections = [
    ...(report.speed !== undefined ? renderSpeedSection(1, report.speed, 'partial-scaling.svg') : []),
    ...(report.serve !== undefined ? serveSection(report.speed !== undefined ? 2 : 1, report.serve) : []),
    ...(report.middleware !== undefined
      ? middlewareSection(1 + [report.speed, report.serve].filter((section) => section !== undefined).length, report.middleware)
      : []),
  ];
  writeFileSync(files.markdown, `${[...header, ...sections].join('\n').trimEnd()}\n`);
  const speed = measuredSpeed(report.speed);
  const chart = speed ? scalingChartOf(speed) : undefined;
  if (!chart) return { json: files.json, markdown: files.markdown };
  writeFileSync(files.chart, chart);
  return files;
}

// Four decimals are more than the timer's noise; the file stays reviewable in a diff.
const rounded = (_key: string, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1e4) / 1e4 : value);

export interface WrittenFiles {
  readonly json: string;
  readonly markdown: string;
  readonly chart: string;
  /** Future-need retention against budget, when the run measured it. */
  readonly futureNeedChart?: string;
  /** The speed section's scaling plot, when the run measured it. */
  readonly scalingChart?: string;
}

/** Full mode regenerates docs/; quick mode writes beside its JSON and leaves docs/ alone. */
export function writeReport(report: BenchReport, root = REPOSITORY_ROOT): WrittenFiles {
  const results = join(root, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  const quick = report.mode === 'quick';
  const measuredFutureNeed = report.futureNeed !== undefined && !('skipped' in report.futureNeed) ? report.futureNeed : undefined;
  const speed = measuredSpeed(report.speed);
  const scalingChart = speed ? scalingChartOf(speed) : undefined;
  const files: WrittenFiles = quick
    ? {
        json: join(results, 'quick.json'),
        markdown: join(results, 'quick.md'),
        chart: join(results, 'quick-tradeoff.svg'),
        ...(measuredFutureNeed ? { futureNeedChart: join(results, 'quick-future-need.svg') } : {}),
        ...(scalingChart ? { scalingChart: join(results, 'quick-scaling.svg') } : {}),
      }
    : {
        json: join(results, 'latest.json'),
        markdown: join(root, 'docs', 'benchmarks.md'),
        chart: join(root, 'docs', 'benchmarks-tradeoff.svg'),
        ...(measuredFutureNeed ? { futureNeedChart: join(root, 'docs', FUTURE_NEED_CHART) } : {}),
        ...(scalingChart ? { scalingChart: join(root, 'docs', SCALING_CHART) } : {}),
      };
  writeFileSync(files.json, `${JSON.stringify(report, rounded, 1)}\n`);
  let markdown = renderBenchmarks(report);
  // A report without the serve or middleware section (`--from` an older one) keeps the figures record-docs last wrote there.
  for (const [section, block] of [
    [report.serve, SERVE_BLOCK],
    [report.middleware, MIDDLEWARE_BLOCK],
  ] as const) {
    if (quick || section !== undefined || !existsSync(files.markdown)) continue;
    const kept = readBlock(readFileSync(files.markdown, 'utf8'), block);
    if (kept !== '') markdown = replaceBlocks(markdown, { [block]: kept }, files.markdown);
  }
  writeFileSync(
    files.markdown,
    quick
      ? markdown
          .replace('(benchmarks-tradeoff.svg)', '(quick-tradeoff.svg)')
          .replace(`(${FUTURE_NEED_CHART})`, '(quick-future-need.svg)')
          .replace(`(${SCALING_CHART})`, '(quick-scaling.svg)')
      : markdown,
  );
  writeFileSync(files.chart, renderTradeoffChart(report.compaction.summaries));
  if (measuredFutureNeed && files.futureNeedChart) writeFileSync(files.futureNeedChart, renderFutureNeedChart(measuredFutureNeed.summaries));
  if (scalingChart && files.scalingChart) writeFileSync(files.scalingChart, scalingChart);
  return files;
}
