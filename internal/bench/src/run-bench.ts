import { mkdirSync, writeFileSync } from 'node:fs';
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
import { describeMachine } from './machine.js';
import { median, timeSync } from './measure.js';
import { FUTURE_NEED_CHART, renderBenchmarks } from './render-benchmarks.js';
import { measureSessionHistory } from './session-history-workload.js';
import { createStrategies } from './strategies.js';
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

export async function runBench(mode: BenchMode, fixtureFolder?: string): Promise<BenchReport> {
  const started = process.hrtime.bigint();
  const machine = describeMachine();
  const location = fixtureFolder ? { folder: resolve(fixtureFolder), origin: 'given' as const } : defaultFixtureFolder();
  const set = await loadFixtures({
    ...location,
    ...(mode.maximumSweAgentFiles !== undefined ? { maximumSweAgentFiles: mode.maximumSweAgentFiles } : {}),
    ...(mode.maximumTauBenchRuns !== undefined ? { maximumTauBenchRuns: mode.maximumTauBenchRuns } : {}),
  });
  const conversations = allConversations(set);
  if (conversations.length === 0) throw new Error(`No SWE-agent or tau-bench transcripts under ${location.folder}.`);
  const pool = conversations.flatMap((conversation) => conversation.messages);
  progress(`${mode.name} mode: ${conversations.length} conversations, ${pool.length} messages from ${location.folder}`);

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
  };
}

export interface WrittenFiles {
  readonly json: string;
  readonly markdown: string;
  readonly chart: string;
  /** Future-need retention against budget, when the run measured it. */
  readonly futureNeedChart?: string;
}

/** Full mode regenerates docs/; quick mode writes beside its JSON and leaves docs/ alone. */
export function writeReport(report: BenchReport, root = REPOSITORY_ROOT): WrittenFiles {
  const results = join(root, 'bench', 'results');
  mkdirSync(results, { recursive: true });
  const quick = report.mode === 'quick';
  const measuredFutureNeed = report.futureNeed !== undefined && !('skipped' in report.futureNeed) ? report.futureNeed : undefined;
  const files: WrittenFiles = quick
    ? {
        json: join(results, 'quick.json'),
        markdown: join(results, 'quick.md'),
        chart: join(results, 'quick-tradeoff.svg'),
        ...(measuredFutureNeed ? { futureNeedChart: join(results, 'quick-future-need.svg') } : {}),
      }
    : {
        json: join(results, 'latest.json'),
        markdown: join(root, 'docs', 'benchmarks.md'),
        chart: join(root, 'docs', 'benchmarks-tradeoff.svg'),
        ...(measuredFutureNeed ? { futureNeedChart: join(root, 'docs', FUTURE_NEED_CHART) } : {}),
      };
  // Four decimals are more than the timer's noise; the file stays reviewable in a diff.
  const rounded = (_key: string, value: unknown) => (typeof value === 'number' && !Number.isInteger(value) ? Math.round(value * 1e4) / 1e4 : value);
  writeFileSync(files.json, `${JSON.stringify(report, rounded, 1)}\n`);
  const markdown = renderBenchmarks(report);
  writeFileSync(
    files.markdown,
    quick ? markdown.replace('(benchmarks-tradeoff.svg)', '(quick-tradeoff.svg)').replace(`(${FUTURE_NEED_CHART})`, '(quick-future-need.svg)') : markdown,
  );
  writeFileSync(files.chart, renderTradeoffChart(report.compaction.summaries));
  if (measuredFutureNeed && files.futureNeedChart) writeFileSync(files.futureNeedChart, renderFutureNeedChart(measuredFutureNeed.summaries));
  return files;
}
