import { pruneMessages } from 'ai';
import { createTokenizer, TokenCounter } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { fromModelMessages, toModelMessages } from '../model-messages.js';
import { indexById } from '../original-fields.js';
import { repositoryConversation } from '../test-fixtures.js';
import { checkConversation } from './conversation-checks.js';
import { cutAfter } from './cut-points.js';
import { aiSdkLadderStrategy, modelMessageCounter, pruneLadder, pruneToBudget } from './peer-ladder.js';

const o200k = () => new TokenCounter(createTokenizer('o200k_base'));

describe('the AI SDK pruneMessages ladder', () => {
  it('goes from least to most pruning: reasoning only, tool calls before the last N messages for N down to 2, before the last message, all', () => {
    const ladder = pruneLadder(6);
    expect(ladder.map((rung) => rung.toolCalls)).toEqual([
      'none',
      'before-last-5-messages',
      'before-last-4-messages',
      'before-last-3-messages',
      'before-last-2-messages',
      'before-last-message',
      'all',
    ]);
    expect(ladder.every((rung) => rung.reasoning === 'all' && rung.emptyMessages === 'remove')).toBe(true);
  });

  it('picks the least pruning rung that fits the budget, counted as ollm counts', async () => {
    const conversation = await repositoryConversation('django__django-11999');
    const prefix = cutAfter(conversation.messages, 0.5)!.prefix;
    const originals = indexById(prefix);
    const converted = toModelMessages(prefix);
    const tokens = o200k().countMessages(prefix);
    const count = modelMessageCounter(originals, o200k());
    for (const share of [0.5, 0.25]) {
      const budget = Math.floor(tokens * share);
      const result = pruneToBudget(converted, budget, count);
      expect(result.fits).toBe(true);
      expect(result.rung).toBeGreaterThan(0);
      // The cached count is ollm's count of the converted output...
      expect(result.tokens).toBe(o200k().countMessages(fromModelMessages(result.messages, originals)));
      expect(result.tokens).toBeLessThanOrEqual(budget);
      // ...and the rung above it (less pruning) does not fit.
      const above = pruneMessages({ messages: converted, ...pruneLadder(converted.length)[result.rung - 1]! });
      expect(o200k().countMessages(fromModelMessages(above, originals))).toBeGreaterThan(budget);
      expect(checkConversation(prefix, fromModelMessages(result.messages, originals)).valid).toBe(true);
    }
  });

  it('finds by binary search the rung a walk from the top finds', async () => {
    const conversation = await repositoryConversation('django__django-11999');
    const converted = toModelMessages(conversation.messages);
    const count = modelMessageCounter(indexById(conversation.messages), o200k());
    const total = count(converted);
    const ladder = pruneLadder(converted.length);
    for (const share of [0.9, 0.6, 0.45, 0.3, 0.2]) {
      const budget = Math.floor(total * share);
      const walked = ladder.findIndex((setting) => count(pruneMessages({ messages: converted, ...setting })) <= budget);
      expect(pruneToBudget(converted, budget, count).rung).toBe(walked === -1 ? ladder.length - 1 : walked);
    }
  });

  it('returns the most aggressive rung, over budget, when none fits', async () => {
    const { messages } = await repositoryConversation('django__django-11999');
    const prefix = cutAfter(messages, 0.5)!.prefix;
    const run = aiSdkLadderStrategy.prepare(prefix);
    await run.arm(10, false)();
    expect(run.detail?.()).toMatch(/toolCalls all, emptyMessages remove$/);
    const output = run.output();
    expect(o200k().countMessages(output)).toBeGreaterThan(10);
    expect(output.some((message) => message.parts.some((part) => part.type === 'tool-call' || part.type === 'tool-result'))).toBe(false);
    expect(checkConversation(prefix, output)).toEqual({ taskKept: true, valid: true });
  });
});
