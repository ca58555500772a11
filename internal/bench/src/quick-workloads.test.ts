import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { QUICK_MODE, type BenchMode } from './bench-mode.js';
import { runBench, writeReport } from './run-bench.js';
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
    expect([...strategies]).toEqual(expect.arrayContaining(['fold', 'trim', 'mask', 'code-aware', 'mask,code-aware,trim', 'ai-sdk pruneMessages']));
    expect([...strategies].filter((name) => name.startsWith('langchain trimMessages'))).toHaveLength(2);
    // 3 conversations x 8 strategies x 3 targets (50%, 25%, 10%).
    expect(report.compaction.cases).toHaveLength(3 * 8 * 3);
    for (const entry of report.compaction.cases) {
      expect(entry.tokensAfter).toBeLessThanOrEqual(entry.tokensBefore);
      if (entry.family === 'ollm') expect(entry.brokenRules).toEqual([]);
    }
    expect(report.compaction.largest.conversation).toMatch(/^django__django-/);
    expect(report.compaction.largest.cases).toHaveLength(8 * 3);

    if ('skipped' in report.goalAware) throw new Error(`goal-aware skipped: ${report.goalAware.skipped}`);
    expect(report.goalAware.map((session) => [session.pipeline, session.turns])).toEqual([['goal-aware', 30]]);
    for (const session of report.goalAware) expect(session.maximumContextTokens).toBeLessThanOrEqual(session.contextSize);
    expect(report.sessionHistory.sizes.map((size) => size.turns)).toEqual([10, 100]);
    expect(report.compactMemory.messages).toBeGreaterThan(0);

    // Future-need retention in its reduced form: the SWE-agent trajectory only, no tau-bench.
    if (!report.futureNeed || 'skipped' in report.futureNeed) throw new Error('future-need was not measured');
    expect(report.futureNeed.fixtures.conversations).toEqual({ 'swe-agent': 1 });
    // 1 trajectory x 2 cuts x 5 strategies x 3 budgets.
    expect(report.futureNeed.cases).toHaveLength(2 * 5 * 3);
    expect(report.futureNeed.summaries.map((summary) => summary.strategy)).toEqual([
      'fold',
      'mask,code-aware,trim',
      'trim',
      'ai-sdk pruneMessages (ladder to budget)',
      'langchain trimMessages (startOn human/ai)',
    ]);

    const files = writeReport(report, root);
    expect(files.json).toBe(join(root, 'bench', 'results', 'quick.json'));
    expect(JSON.parse(readFileSync(files.json, 'utf8')).mode).toBe('quick');
    const markdown = readFileSync(files.markdown, 'utf8');
    expect(markdown).toContain('## 2. Compaction');
    expect(markdown).toContain('| trim | 50% |');
    expect(markdown).toMatch(/Retention by probe kind at 10%[\s\S]*\| strategy \| user-id \(\d+\)/);
    expect(markdown).toContain('(quick-tradeoff.svg)');
    expect(markdown).toMatch(/## 5\. Future-need retention[\s\S]*<!-- recorded: future-need -->[\s\S]*\| mask,code-aware,trim \| 6\/6 \|/);
    expect(markdown).toContain('(quick-future-need.svg)');
    expect(files.futureNeedChart).toBe(join(root, 'bench', 'results', 'quick-future-need.svg'));
    expect(readFileSync(files.futureNeedChart!, 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*<polyline[\s\S]*<\/svg>\n$/);
    expect(readFileSync(files.chart, 'utf8')).toMatch(/^<svg [^>]*>[\s\S]*<circle[\s\S]*<\/svg>\n$/);
    // Quick mode never touches docs/.
    expect(existsSync(join(root, 'docs'))).toBe(false);
  });
});
