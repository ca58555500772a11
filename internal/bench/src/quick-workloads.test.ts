import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUICK_MODE, type BenchMode } from './bench-mode.js';
import { runBench, writeReport } from './run-bench.js';
import { QUICK_SERVE_MODE } from './serve/serve-mode.js';
import { QUICK_SPEED_MODE } from './speed/speed-mode.js';
import { REPOSITORY_FIXTURES } from './test-fixtures.js';

// The quick mode's workloads, smaller still: one SWE-agent trajectory and two tau-bench runs.
const TINY: BenchMode = {
  ...QUICK_MODE,
  maximumSweAgentFiles: 1,
  maximumTauBenchRuns: 2,
  appendSizes: [10, 100],
  appendsPerSize: 5,
  goalAwareTurns: 30,
  historySizes: [10, 100],
  historyAppends: 5,
  speed: {
    ...QUICK_SPEED_MODE,
    rounds: 1,
    liveRounds: 1,
    scalingSizes: [3_000, 6_000],
    scalingRounds: 1,
    runtimeSizes: [10, 100],
    runtimeTurns: 5,
    pinnedTurns: 30,
    cliRounds: 1,
    hostileRepeated: [2_000],
    hostileNestedDepths: [50],
  },
  serve: {
    ...QUICK_SERVE_MODE,
    shortConversations: 1,
    shortTurns: 2,
    longTurns: 16,
    warmUpTurns: 2,
    concurrency: 2,
    throughputTurns: 2,
    throughputWarmUpTurns: 1,
  },
  middleware: { shortSteps: 2, shortRuns: 1, longSteps: 16, longRuns: 1, warmUpSteps: 2 },
  promptCache: { steps: 8, windows: [8_192] },
};

const root = mkdtempSync(join(tmpdir(), 'ollm-bench-test-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('quick mode on one tiny fixture', () => {
  // Generous timeout: the machine is shared and this spawns `ollm compact`; nothing here measures time.
  it('runs every workload and writes a report of the expected shape (no timing asserted)', { timeout: 240_000 }, async () => {
    const report = await runBench(TINY, REPOSITORY_FIXTURES);
    expect(report.mode).toBe('quick');
    expect(report.fixtures.files.map((file) => file.conversations)).toEqual([1, 2]);
    expect(report.tokenAccounting.coldCounts).toHaveLength(2);
    expect(report.tokenAccounting.coldCounts.every((count) => count.tokens > 0)).toBe(true);
    expect(report.tokenAccounting.incremental.sizes.map((size) => size.messages)).toEqual([10, 100]);

    const strategies = new Set(report.compaction.summaries.map((summary) => summary.strategy));
    expect([...strategies]).toEqual(
      expect.arrayContaining(['fold', 'trim', 'mask', 'code-aware', 'mask,code-aware,trim', 'ai-sdk pruneMessages', 'ai-sdk pruneMessages (ladder to budget)']),
    );
    expect([...strategies].filter((name) => name.startsWith('langchain trimMessages'))).toHaveLength(2);
    // 3 conversations x 9 strategies x 3 targets (50%, 25%, 10%).
    expect(report.compaction.cases).toHaveLength(3 * 9 * 3);
    for (const entry of report.compaction.cases) {
      expect(entry.tokensAfter).toBeLessThanOrEqual(entry.tokensBefore);
      if (entry.family === 'ollm') expect(entry.brokenRules).toEqual([]);
    }
    expect(report.compaction.largest.conversation).toMatch(/^django__django-/);
    expect(report.compaction.largest.cases).toHaveLength(9 * 3);
    // The ladder aims at each target (it reaches 50% on the trajectory) and keeps calls and results paired.
    const ladder = report.compaction.cases.filter((candidate) => candidate.strategy.includes('ladder') && candidate.kind === 'swe-agent');
    expect(ladder.map((entry) => entry.target)).toEqual([0.5, 0.25, 0.1]);
    expect(ladder[0]!.tokensAfter).toBeLessThanOrEqual(ladder[0]!.limit);
    for (const entry of ladder) expect(entry.pairingProblem).toBeUndefined();

    if ('skipped' in report.goalAware) throw new Error(`goal-aware skipped: ${report.goalAware.skipped}`);
    expect(report.goalAware.map((session) => [session.pipeline, session.turns])).toEqual([['goal-aware', 30]]);
    for (const session of report.goalAware) expect(session.maximumContextTokens).toBeLessThanOrEqual(session.contextSize);
    expect(report.sessionHistory.sizes.map((size) => size.turns)).toEqual([10, 100]);
    expect(report.compactMemory.messages).toBeGreaterThan(0);

    // Future-need retention in its reduced form: the SWE-agent trajectory only, no tau-bench.
    if (!report.futureNeed || 'skipped' in report.futureNeed) throw new Error('future-need was not measured');
    expect(report.futureNeed.fixtures.conversations).toEqual({ 'swe-agent': 1 });
    // 1 trajectory x 2 cuts x 7 strategies x 3 budgets.
    expect(report.futureNeed.cases).toHaveLength(2 * 7 * 3);
    expect(report.futureNeed.summaries.map((summary) => summary.strategy)).toEqual([
      'fold',
      'mask,code-aware,trim',
      'trim',
      'recency',
      'names-list',
      'ai-sdk pruneMessages (ladder to budget)',
      'langchain trimMessages (startOn human/ai)',
    ]);

    // The speed section: every part ran on the one trajectory (spawned parts need the built CLI and bench).
    if (!report.speed || 'skipped' in report.speed) throw new Error('speed was not measured');
    const speed = report.speed;
    expect(speed.conversations.map((conversation) => conversation.id)).toEqual([report.compaction.largest.conversation]);
    // 7 contenders with a fresh counter, 5 of them warm too; one conversation.
    expect(speed.inProcess!.cases.filter((entry) => entry.mode === 'fresh')).toHaveLength(7);
    expect(speed.inProcess!.cases.filter((entry) => entry.mode === 'warm').map((entry) => entry.contender)).toEqual([
      'trim',
      'mask,code-aware,trim',
      'fold',
      'langchain-cached',
      'ai-sdk-ladder',
    ]);
    for (const entry of speed.inProcess!.cases) {
      expect(entry.error).toBeUndefined();
      expect(entry.samples).toHaveLength(1);
    }
    expect(speed.liveAgent!.cases.map((entry) => [entry.contender, entry.error])).toEqual([
      ['trim', undefined],
      ['trim (incremental)', undefined],
      ['mask,code-aware,trim', undefined],
      ['mask,code-aware,trim (incremental)', undefined],
      ['fold', undefined],
      ['fold (incremental)', undefined],
      ['langchain-cached', undefined],
    ]);
    // Quick mode's process contenders, each in a cold and in a fresh (warmed) process; the code parse in fresh ones only.
    expect(speed.processes!.cases.map((entry) => `${entry.kind} ${entry.contender}`).sort()).toEqual(
      [...['trim', 'mask,code-aware,trim', 'fold', 'floor'].flatMap((name) => [`cold ${name}`, `fresh ${name}`]), 'fresh code-parse'].sort(),
    );
    expect(speed.processes!.cases.map((entry) => [entry.error, entry.samples])).toEqual(speed.processes!.cases.map(() => [undefined, 1]));
    expect([...new Set(speed.scaling!.points.map((point) => point.mode))].sort()).toEqual(['fresh', 'warm']);
    expect(speed.scaling!.points.every((point) => point.tokens >= 3_000)).toBe(true);
    expect(speed.runtimeTurns!.sizes.map((size) => [size.activeMessages >= 10, size.compactions])).toEqual([
      [true, 0],
      [true, 0],
    ]);
    expect(speed.pinnedOverflow!.turns).toBe(30);
    expect(speed.cliStartup!.commands.map((command) => command.name)).toEqual([
      'node -e 0',
      'ollm --help',
      'ollm stats --json',
      'ollm compact --provider trim',
      'ollm compact (default provider)',
      'ollm compact --provider mask,code-aware,trim',
    ]);
    expect(speed.hostile!.inputs.map((input) => input.name)).toEqual(['repeated-2k', 'nested-50']);
    expect(speed.hostile!.runs).toHaveLength(2 * 4);

    // The serve section (its own test covers it in detail): every case ran, and the proxy compacted.
    if (!report.serve || 'skipped' in report.serve) throw new Error('serve was not measured');
    expect(report.serve.short.map((entry) => entry.all.requests)).toEqual([2, 2, 2, 2]);
    expect(report.serve.long.flatMap((entry) => entry.byAction.map((split) => split.action))).toContain('compacted');
    expect(report.serve.throughput.cases.map((entry) => entry.target)).toEqual(['direct', 'memory', 'files']);

    // The middleware section (its own test covers it in detail): both frameworks, plain and wrapped, the long loop compacted.
    if (!report.middleware || 'skipped' in report.middleware) throw new Error('middleware was not measured');
    expect(report.middleware.cases).toHaveLength(8);
    for (const entry of report.middleware.cases.filter((candidate) => candidate.wrapped && candidate.loopSteps === 16)) {
      expect(entry.all.steps).toBe(17);
      expect(entry.byKind.map((split) => split.kind)).toContain('compacted');
    }

    const files = writeReport(report, root);
    expect(files.json).toBe(join(root, 'bench', 'results', 'quick.json'));
    expect(JSON.parse(readFileSync(files.json, 'utf8')).mode).toBe('quick');
    const markdown = readFileSync(files.markdown, 'utf8');
    expect(markdown).toContain('## 2. Compaction');
    expect(markdown).toContain('| trim | 50% |');
    expect(markdown).toMatch(/Retention by probe kind at 10%[\s\S]*\| strategy \| user-id \(\d+\)/);
    expect(markdown).toContain('(quick-tradeoff.svg)');
    expect(markdown).toMatch(
      /## 5\. Future-need retention[\s\S]*<!-- recorded: future-need -->[\s\S]*\| mask,code-aware,trim \| \d\/\d\/\d \| 6\/6 \| \d\/2 \|/,
    );
    expect(markdown).toMatch(/\| strategy \| budget \| tokens after \(median\) \| A \(\d+\) \| B \(\d+\) \| C \(\d+\) \| D \(\d+\) \|/);
    expect(markdown).toContain('(quick-future-need.svg)');
    expect(markdown).toMatch(
      /## 6\. Speed: ratios from one run[\s\S]*\| Done when \(issue 15\) \| target \| measured \| met \|[\s\S]*## 7\. Reading the comparison/,
    );
    expect(markdown).toContain('(quick-scaling.svg)');
    expect(markdown).toMatch(
      /## 8\. ollm serve: added latency and throughput\n\n<!-- recorded: serve -->[\s\S]*\| growing to 16 turns \| openai \| compacted now \|/,
    );
    expect(markdown).toMatch(
      /## 9\. Middlewares: overhead per agent step\n\n<!-- recorded: middleware -->[\s\S]*\| AI SDK `generateText` \| 16 steps \| wrapped \| compacted now \|/,
    );
    expect(markdown).toMatch(/## 11\. Prompt-cache reuse in a coding agent loop \(ollm serve\)[\s\S]*\| 8,192 \| ollm serve \| 8 \| 0 \|/);
    expect(readFileSync(files.scalingChart!, 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*<polyline[\s\S]*<\/svg>\n$/);
    expect(files.futureNeedChart).toBe(join(root, 'bench', 'results', 'quick-future-need.svg'));
    expect(readFileSync(files.futureNeedChart!, 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*<polyline[\s\S]*<\/svg>\n$/);
    expect(readFileSync(files.chart, 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*<circle[\s\S]*<\/svg>\n$/);
    // Quick mode never touches docs/.
    expect(existsSync(join(root, 'docs'))).toBe(false);

    // A full report without the serve and middleware sections (rendered again from an older one) keeps the blocks record-docs wrote.
    mkdirSync(join(root, 'docs'));
    writeFileSync(
      join(root, 'docs', 'benchmarks.md'),
      '# Benchmarks\n\n<!-- recorded: serve -->\nrecorded serve figures\n<!-- /recorded -->\n\n<!-- recorded: middleware -->\nrecorded middleware figures\n<!-- /recorded -->\n',
    );
    const { serve: _serve, middleware: _middleware, ...withoutServe } = report;
    const full = writeReport({ ...withoutServe, mode: 'full' }, root);
    expect(full.markdown).toBe(join(root, 'docs', 'benchmarks.md'));
    const rendered = readFileSync(full.markdown, 'utf8');
    expect(rendered).toMatch(/## 8\. ollm serve: added latency and throughput\n\n<!-- recorded: serve -->\nrecorded serve figures\n<!-- \/recorded -->/);
    expect(rendered).toMatch(/## 9\. Middlewares: overhead per agent step\n\n<!-- recorded: middleware -->\nrecorded middleware figures\n<!-- \/recorded -->/);
  });
});
