import { describe, expect, it } from 'vitest';
import { replaceBlocks } from '../docs/doc-blocks.js';
import { REPOSITORY_FIXTURES, repositoryConversation } from '../test-fixtures.js';
import { renderFutureNeedChart } from './chart.js';
import { futureNeedReport } from './report.js';
import { FUTURE_NEED_BLOCK, futureNeedBlock, futureNeedSection } from './section.js';
import { resolveStrategies } from './strategy-names.js';
import { futureNeedProbeTable, futureNeedTable } from './table.js';

describe('the future-need workload on one trajectory', () => {
  it('probes every strategy the same way and tells valid, under budget and retention apart', { timeout: 120_000 }, async () => {
    const conversation = await repositoryConversation('django__django-11999');
    const report = await futureNeedReport(
      [conversation],
      { folder: REPOSITORY_FIXTURES, origin: 'repository' },
      {
        strategies: ['mask,code-aware,trim', 'ai-sdk', 'langchain', 'names-list'],
        cuts: [0.5, 0.8],
        budgets: [0.5, 0.1],
      },
    );
    expect(report.cutRecords).toHaveLength(2);
    expect(report.cases).toHaveLength(2 * 4 * 2);
    for (const cut of report.cutRecords) expect(cut.needs).toBeGreaterThan(0);
    // The trajectory's fact lines and error/test lines at each cut (its one edit is before the first cut).
    for (const cut of report.cutRecords) expect(cut.probes.C).toBeGreaterThan(0);
    for (const entry of report.cases) {
      const cut = report.cutRecords.find((record) => record.fraction === entry.fraction)!;
      // The same needs for every strategy; never more retained than there were.
      expect(entry.needs).toBe(cut.needs);
      expect(entry.retained).toBeLessThanOrEqual(entry.needs);
      expect(entry.limit).toBe(Math.floor(cut.prefixTokens * entry.budget));
      expect(entry.underBudget).toBe(entry.tokensAfter <= entry.limit);
      expect(entry.probes.A).toEqual({ available: entry.needs, retained: entry.retained });
      for (const kind of ['B', 'C', 'D'] as const) {
        expect(entry.probes[kind].available).toBe(cut.probes[kind]);
        expect(entry.probes[kind].retained).toBeLessThanOrEqual(entry.probes[kind].available);
      }
    }
    const of = (strategy: string) => report.cases.filter((entry) => entry.strategy.startsWith(strategy));
    // ollm never drops the task or a tool pairing; LangChain's tail drops the task.
    expect(of('mask,code-aware,trim').every((entry) => entry.valid)).toBe(true);
    expect(of('langchain').every((entry) => !entry.taskKept && !entry.valid)).toBe(true);
    // The ladder reaches 50% by pruning tool calls, and says which rung it took.
    const ladderAtHalf = of('ai-sdk').filter((entry) => entry.budget === 0.5);
    expect(ladderAtHalf.every((entry) => entry.underBudget && entry.valid && /^rung \d+: /.test(entry.detail ?? ''))).toBe(true);

    // The names-list baseline keeps every name it drops at half the prefix (A is gameable) but no fact line of what it dropped.
    const namesAtHalf = of('names-list').filter((entry) => entry.budget === 0.5);
    expect(namesAtHalf.every((entry) => entry.retained === entry.needs && entry.valid)).toBe(true);
    expect(namesAtHalf.some((entry) => entry.probes.C.retained < entry.probes.C.available)).toBe(true);

    // Budgets 50% and 10%: the headline budget is the middle one given (no 25%), 10%.
    const table = futureNeedTable(report.summaries);
    expect(table.split('\n')[0]).toBe('| strategy | under 50/10% (of 2) | valid | monotone breaks | A 10% | B 10% | C 50% / 10% | D 10% |');
    expect(table).toMatch(/\| mask,code-aware,trim \| \d\/\d \| 4\/4 \| [0-2]\/2 \| \d+\.\d% \| — \| \d+\.\d% \/ \d+\.\d% \| (?:\d+\.\d%|—) \|/);
    expect(table).toContain('| langchain trimMessages (startOn human/ai) | 2/2 | 0/4 |');
    expect(futureNeedProbeTable(report.summaries).split('\n')[0]).toMatch(
      /^\| strategy \| budget \| tokens after \(median\) \| A \(\d+\) \| B \(0\) \| C \(\d+\) \| D \(\d+\) \|$/,
    );

    // The docs section is a block record-docs can refresh alone, with the same content.
    const section = futureNeedSection(5, report, 'chart.svg').join('\n');
    expect(replaceBlocks(section, { [FUTURE_NEED_BLOCK]: futureNeedBlock(report, 'chart.svg') }, 'section')).toBe(section);
    expect(section).toContain('![future-need retention against budget](chart.svg)');
    expect(renderFutureNeedChart(report.summaries)).toMatch(/^<svg [^>]*>[\s\S]*<polyline[\s\S]*valid in 0\/4[\s\S]*<\/svg>\n$/);
  });

  it('takes any pipeline of registered providers and rejects an unknown one with the names it knows', async () => {
    const { strategies } = await resolveStrategies(['trim, mask', 'ai-sdk', 'langchain-human', 'recency', 'names-list']);
    expect(strategies.map((strategy) => strategy.name)).toEqual([
      'trim,mask',
      'ai-sdk pruneMessages (ladder to budget)',
      'langchain trimMessages (startOn human)',
      'recency',
      'names-list',
    ]);
    expect(strategies.map((strategy) => strategy.family).slice(3)).toEqual(['baseline', 'baseline']);
    await expect(resolveStrategies(['mask,no-such-stage'])).rejects.toThrow(/no-such-stage[\s\S]*code-aware/);
  });
});
