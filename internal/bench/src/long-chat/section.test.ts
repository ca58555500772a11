import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FULL_MODE, QUICK_MODE, type BenchMode } from '../bench-mode.js';
import type { BenchReport } from '../bench-report.js';
import { REPOSITORY_ROOT } from '../fixture-set.js';
import { renderBenchmarks } from '../render-benchmarks.js';
import { runLongChatWorkload } from '../run-bench.js';
import { readLocomoChat } from './locomo.js';
import { DEFAULT_LONG_CHAT_STRATEGIES, measureLongChat, type LongChatReport } from './measure.js';
import { LONG_CHAT_TITLE, longChatSection } from './section.js';
import { syntheticDocument } from './test-support/synthetic-chat.js';

// Made-up chats (no LoCoMo content): "Blake note 1.2" only in the oldest turns, "Avery note 3.5" among the newest.
const QUESTIONS = [
  { question: 'early', answer: 'Blake note 1.2', evidence: ['D1:2'], category: 4 },
  { question: 'recent', answer: 'Avery note 3.5', evidence: ['D3:5'], category: 1 },
];

const root = mkdtempSync(join(tmpdir(), 'ollm-long-chat-section-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function fullModeAt(folder: string, strategies: readonly string[] = ['recency', 'trim']): BenchMode {
  return { ...FULL_MODE, longChat: { ...FULL_MODE.longChat!, strategies, folder } };
}

function measured(section: BenchReport['longChat']): LongChatReport {
  if (section === undefined || 'skipped' in section) throw new Error(`long chats not measured: ${section?.skipped}`);
  return section;
}

describe('the long-chat section of `pnpm bench`', () => {
  it('is part of full mode with the measure’s default strategies, and skipped in quick mode', async () => {
    expect(FULL_MODE.longChat).toMatchObject({ strategies: DEFAULT_LONG_CHAT_STRATEGIES, budgets: [0.5, 0.25, 0.1] });
    expect(FULL_MODE.longChat!.folder).toBeUndefined();
    expect(QUICK_MODE.longChat).toBeUndefined();
    expect(await runLongChatWorkload(QUICK_MODE)).toEqual({ skipped: 'not part of quick mode' });
  });

  it('is skipped, with the reason, when the LoCoMo folder is missing or holds no sample', async () => {
    const missing = join(root, 'no-such-folder');
    expect(await runLongChatWorkload(fullModeAt(missing))).toEqual({ skipped: expect.stringContaining(`no LoCoMo samples at ${missing}`) });
    const empty = join(root, 'empty');
    mkdirSync(empty);
    writeFileSync(join(empty, 'README.md'), 'not a sample\n');
    expect(await runLongChatWorkload(fullModeAt(empty))).toEqual({ skipped: `no LoCoMo samples (*.json) in ${empty}` });
  });

  it('measures the samples of the folder in full mode', async () => {
    const folder = join(root, 'samples');
    mkdirSync(folder);
    writeFileSync(join(folder, '1.json'), JSON.stringify(syntheticDocument(3, 6, QUESTIONS)));
    writeFileSync(join(folder, '2.json'), JSON.stringify(syntheticDocument(4, 4, QUESTIONS)));
    const report = measured(await runLongChatWorkload(fullModeAt(folder)));
    expect(report.folder).toBe(folder);
    expect(report.fixtures.map((chat) => chat.id)).toEqual(['1', '2']);
    expect(report.summaries.map((summary) => [summary.strategy, summary.budget, summary.chats])).toEqual([
      ['recency', 0.5, 2],
      ['recency', 0.25, 2],
      ['recency', 0.1, 2],
      ['trim', 0.5, 2],
      ['trim', 0.25, 2],
      ['trim', 0.1, 2],
    ]);
    for (const chat of report.fixtures) expect(chat.systemAndUserTokens / chat.tokens).toBeGreaterThan(0.4);
  });

  it('renders the explanation and the tables of a synthetic report', async () => {
    const chat = readLocomoChat(syntheticDocument(3, 6, QUESTIONS), 'synthetic');
    const report = await measureLongChat({ chats: [chat], strategies: ['recency', 'trim'] });
    const text = longChatSection(10, report).join('\n');
    expect(text).toMatch(new RegExp(`^## 10\\. ${LONG_CHAT_TITLE.replace(/[()]/g, '\\$&')}\n\n`));
    expect(text).toContain('user messages hold half the tokens (');
    expect(text).toContain('compacted to 50%, 25% and 10% of its own o200k tokens');
    expect(text).toContain('Only under-budget rows are comparable');
    // trim leaves a chat without tool output as it is: over budget at every budget.
    expect(text).toContain('Here `trim` is over budget in every run: it returns each chat unchanged.');
    expect(text).toContain('CC BY-NC 4.0');
    expect(text).toContain('never copied into it');
    expect(text).toContain('- chat synthetic: 3 sessions, 19 messages');
    expect(text).toMatch(/\| strategy \| budget \| tokens after \(median\) \|[^\n]*\| answers present \|/);
    for (const row of ['| recency | 50% |', '| recency | 10% |', '| trim | 25% |']) expect(text).toContain(row);
    expect(text).toContain('Monotonicity: no output at a smaller budget is larger than at a larger one.');
    expect(longChatSection(10, { skipped: 'not part of quick mode' })).toEqual([`## 10. ${LONG_CHAT_TITLE}`, '', 'Skipped: not part of quick mode', '']);
  });

  it('renders docs/benchmarks.md with the section, and a report written before it existed with a line saying so', async () => {
    // The recorded full report (`pnpm bench --from` renders it again), without and with a long-chat section.
    const recorded = JSON.parse(readFileSync(join(REPOSITORY_ROOT, 'bench', 'results', 'latest.json'), 'utf8')) as BenchReport;
    const { longChat: _longChat, ...older } = recorded;
    expect(renderBenchmarks(older)).toMatch(/## 10\. Long chats \(LoCoMo, benchmarks only\)\n\nSkipped: not measured by this run\n(\n## 11\.|$)/);
    const chat = readLocomoChat(syntheticDocument(3, 6, QUESTIONS), 'synthetic');
    const markdown = renderBenchmarks({ ...older, longChat: await measureLongChat({ chats: [chat], strategies: ['recency'] }) });
    expect(markdown).toMatch(/## 9\. Middlewares[\s\S]*## 10\. Long chats \(LoCoMo, benchmarks only\)\n\nEach LoCoMo sample[\s\S]*\| recency \| 25% \|/);
  });
});
