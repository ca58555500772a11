import { TokenCounter, createTokenizer } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { readLocomoChat } from './locomo.js';
import { keepRecent, recencyStrategy } from './recency.js';
import { syntheticDocument } from './test-support/synthetic-chat.js';

const chat = readLocomoChat(syntheticDocument(4, 6), 'synthetic');
const counter = new TokenCounter(createTokenizer('o200k_base'));
const count = (message: (typeof chat.messages)[number]) => counter.countMessage(message);
const total = counter.countMessages(chat.messages);
const head = counter.countMessages(chat.messages.slice(0, 2));

describe('recency baseline', () => {
  it('is never over the limit and keeps the system message, the first user message and a newest tail', () => {
    for (let limit = head; limit <= total + 10; limit += 7) {
      const kept = keepRecent(chat.messages, limit, count);
      expect(counter.countMessages(kept)).toBeLessThanOrEqual(limit);
      expect(kept.slice(0, 2).map((message) => message.id)).toEqual(['system', 'D1:1']);
      // The rest is the chat's newest messages, contiguous.
      const tail = kept.slice(2);
      expect(tail).toEqual(chat.messages.slice(chat.messages.length - tail.length).filter((message) => message.id !== 'D1:1'));
      // Greedy: the next older message would not have fitted.
      const next = chat.messages[chat.messages.length - tail.length - 1]!;
      if (next.id !== 'D1:1') expect(counter.countMessages(kept) + count(next)).toBeGreaterThan(limit);
    }
    expect(keepRecent(chat.messages, total, count)).toEqual(chat.messages);
  });

  it('keeps what fits of the head when the head itself is over the limit', () => {
    const system = count(chat.messages[0]!);
    expect(keepRecent(chat.messages, system - 1, count)).toEqual([]);
    const kept = keepRecent(chat.messages, head - 1, count);
    expect(kept[0]!.id).toBe('system');
    expect(kept.map((message) => message.id)).not.toContain('D1:1');
    expect(counter.countMessages(kept)).toBeLessThanOrEqual(head - 1);
  });

  it('runs as a Strategy: prepare, arm(limit), output', async () => {
    const prepared = recencyStrategy.prepare(chat.messages);
    const limit = Math.floor(total * 0.25);
    await prepared.arm(limit, false)();
    const output = prepared.output();
    expect(counter.countMessages(output)).toBeLessThanOrEqual(limit);
    expect(output.length).toBeLessThan(chat.messages.length);
    expect(output.map((message) => message.id)).toContain('D1:1');
    expect(output[output.length - 1]!.id).toBe('D4:6');
    expect(prepared.error()).toBeUndefined();
  });
});
