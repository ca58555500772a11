import type { Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { aiSdkLadderStrategy } from '../future-need/peer-ladder.js';
import { counterFor, type Strategy } from '../strategies.js';
import { readLocomoChat } from './locomo.js';
import { parseBudgets, renderLongChat } from './long-chat.js';
import { DEFAULT_LONG_CHAT_STRATEGIES, longChatStrategy, measureLongChat, median } from './measure.js';
import { recencyStrategy } from './recency.js';
import { syntheticDocument } from './test-support/synthetic-chat.js';

// 3 sessions of 6 turns. Answers: "blake note 1.2" only in D1:2 (early), "avery note 3.5" only in
// D3:5 (newest but one), "purple giraffe" nowhere (not counted), "note" in every turn.
const chat = readLocomoChat(
  syntheticDocument(3, 6, [
    { question: 'early', answer: 'Blake note 1.2', evidence: ['D1:2'], category: 4 },
    { question: 'recent', answer: 'Avery note 3.5.', evidence: ['D3:5'], category: 1 },
    { question: 'absent', answer: 'Purple giraffe', evidence: ['D3:6'], category: 2 },
    { question: 'everywhere', answer: 'note', evidence: ['D2:1'], category: 3 },
    { question: 'adversarial', adversarial_answer: 'Blake note 1.2', evidence: ['D1:2'], category: 5 },
  ]),
  'synthetic',
);

/** Returns its input: never under a budget below 100%, every question kept. */
const identity: Strategy = {
  name: 'identity',
  family: 'test',
  hasTokenTarget: false,
  prepare: (messages) => ({ arm: () => async () => {}, output: () => messages, error: () => undefined }),
};

/** Drops the older half at budgets of 40% and more, nothing below: smaller budget, larger output. */
const backwards: Strategy = {
  name: 'backwards',
  family: 'test',
  hasTokenTarget: true,
  prepare(messages) {
    const tokens = counterFor(messages, false).countMessages(messages);
    let output: readonly Message[] = messages;
    return {
      arm: (limit) => async () => {
        output = limit >= tokens * 0.4 ? messages.slice(Math.floor(messages.length / 2)) : messages;
      },
      output: () => output,
      error: () => undefined,
    };
  },
};

describe('measureLongChat', () => {
  it('counts only answers the full chat holds, and never category 5', async () => {
    const report = await measureLongChat({ chats: [chat], budgets: [0.5], strategies: [identity] });
    expect(report.fixtures[0]).toMatchObject({ questions: 4, evidenceQuestions: 4, answersInFullChat: 3, answersOutsideEvidence: 1 });
    const [run] = report.runs;
    expect(run!.presence).toEqual({ evidenceQuestions: 4, evidenceShareSum: 4, evidenceComplete: 4, answersCounted: 3, answersPresent: 3 });
    expect(run!.byCategory['2']).toMatchObject({ evidenceQuestions: 1, answersCounted: 0, answersPresent: 0 });
    expect(run!).toMatchObject({ underBudget: false, tokensAfter: run!.tokensBefore, limit: Math.floor(run!.tokensBefore / 2) });
    expect(run!.ratio).toBeGreaterThan(1.99);
  });

  it('loses an early turn and its answer under recency while a recent one stays', async () => {
    const report = await measureLongChat({ chats: [chat], budgets: [0.5, 0.25], strategies: [recencyStrategy] });
    expect(report.budgets).toEqual([0.5, 0.25]);
    for (const run of report.runs) {
      expect(run.underBudget).toBe(true);
      expect(run.tokensAfter).toBeLessThanOrEqual(run.limit);
      // Category 1's answer and evidence (D3:5) are in the newest messages; category 4's (D1:2) is not.
      expect(run.byCategory['1']).toMatchObject({ evidenceComplete: 1, answersPresent: 1 });
      expect(run.byCategory['4']).toMatchObject({ evidenceComplete: 0, answersCounted: 1, answersPresent: 0 });
      // "note" is in every turn: found whatever is kept of its evidence turn D2:1.
      expect(run.byCategory['3']).toMatchObject({ answersPresent: 1 });
    }
    const quarter = report.summaries.find((summary) => summary.budget === 0.25)!;
    expect(quarter).toMatchObject({ strategy: 'recency', chats: 1, underBudget: 1, failed: 0 });
    expect(quarter.byCategory['3']!.evidenceComplete).toBe(0);
    expect(report.monotonicityBreaks).toEqual([]);
  });

  it('records an output larger at the smaller budget', async () => {
    const report = await measureLongChat({ chats: [chat, { ...chat, id: 'copy' }], budgets: [0.25, 0.5], strategies: [backwards, recencyStrategy] });
    expect(report.monotonicityBreaks.map((entry) => [entry.strategy, entry.chat, entry.largerBudget, entry.smallerBudget])).toEqual([
      ['backwards', 'synthetic', 0.5, 0.25],
      ['backwards', 'copy', 0.5, 0.25],
    ]);
    const breakEntry = report.monotonicityBreaks[0]!;
    expect(breakEntry.tokensAtSmaller).toBeGreaterThan(breakEntry.tokensAtLarger);
    expect(report.summaries.map((summary) => [summary.strategy, summary.budget, summary.chats])).toEqual([
      ['backwards', 0.5, 2],
      ['backwards', 0.25, 2],
      ['recency', 0.5, 2],
      ['recency', 0.25, 2],
    ]);
  });

  it('runs the default strategies by name, none of them growing the chat', async () => {
    const report = await measureLongChat({ chats: [chat] });
    expect(report.strategies).toEqual(DEFAULT_LONG_CHAT_STRATEGIES);
    expect(report.runs).toHaveLength(DEFAULT_LONG_CHAT_STRATEGIES.length * 3);
    for (const run of report.runs) expect(run.tokensAfter).toBeLessThanOrEqual(run.tokensBefore);
    for (const run of report.runs.filter((entry) => entry.strategy === 'langchain' || entry.strategy === 'recency')) expect(run.underBudget).toBe(true);
    const table = renderLongChat(report);
    for (const name of DEFAULT_LONG_CHAT_STRATEGIES) expect(table).toContain(`| ${name} | 10% |`);
  });

  it('resolves strategy names, failing at once on an unknown one', async () => {
    expect(longChatStrategy('langchain').family).toBe('LangChain.js');
    expect(longChatStrategy('ai-sdk')).toBe(aiSdkLadderStrategy);
    expect(longChatStrategy('trim')).toMatchObject({ name: 'trim', family: 'ollm' });
    await expect(measureLongChat({ chats: [chat], strategies: ['no-such-provider'] })).rejects.toThrow(/no-such-provider/);
  });
});

describe('helpers', () => {
  it('median of odd and even counts', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('parseBudgets takes percentages or shares and rejects the rest', () => {
    expect(parseBudgets('50,25,10')).toEqual([0.5, 0.25, 0.1]);
    expect(parseBudgets('0.5, 0.1')).toEqual([0.5, 0.1]);
    expect(() => parseBudgets('50,,10')).toThrow(/--budgets/);
    expect(() => parseBudgets('100')).toThrow(/--budgets/);
    expect(() => parseBudgets('0')).toThrow(/--budgets/);
  });
});
