import { createTokenizer, isCheckpointMessage, TokenCounter, type Message } from '@ollm/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ActiveContext } from './active-context.js';
import { ConversationTally } from './conversation-tally.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));

function message(index: number, text: string, checkpoint: boolean): Message {
  return {
    id: `m${index}`,
    role: index % 2 === 0 ? 'user' : 'assistant',
    parts: [{ type: 'text', text }],
    ...(checkpoint
      ? {
          metadata: {
            checkpoint: {
              id: `c${index}`,
              level: 3,
              range: 'Messages 1-2',
              summary: text,
              createdAt: '2026-01-01T00:00:00.000Z',
              originalTokens: 10,
              currentTokens: 5,
              compressionCount: 1,
            },
          },
        }
      : {}),
  };
}

function recount(messages: readonly Message[]): { checkpointTokens: number; conversationTokens: number } {
  let checkpointTokens = 0;
  let conversationTokens = 0;
  for (const entry of messages) {
    if (isCheckpointMessage(entry)) checkpointTokens += tokens.countMessage(entry);
    else conversationTokens += tokens.countMessage(entry);
  }
  return { checkpointTokens, conversationTokens };
}

type Operation =
  | { kind: 'add'; text: string; checkpoint: boolean }
  | { kind: 'remove'; at: number }
  | { kind: 'replace-prefix'; length: number; keep: number }
  | { kind: 'restore'; keep: number };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('add' as const), text: fc.string({ maxLength: 40 }), checkpoint: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('remove' as const), at: fc.nat(30) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('replace-prefix' as const), length: fc.nat(30), keep: fc.nat(5) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('restore' as const), keep: fc.nat(30) }) },
);

describe('ConversationTally', () => {
  it('always equals a full recount, whatever the active context did (appends, removals, compactions, restores)', () => {
    fc.assert(
      fc.property(fc.array(operation, { maxLength: 60 }), (operations) => {
        const context = new ActiveContext();
        const tally = new ConversationTally(tokens);
        let next = 0;
        for (const step of operations) {
          const list = context.messages;
          if (step.kind === 'add') context.add(message(next++, step.text, step.checkpoint));
          else if (step.kind === 'remove' && list.length > 0) context.remove(list[step.at % list.length]!.id);
          else if (step.kind === 'replace-prefix') {
            const length = Math.min(step.length, list.length);
            context.replacePrefix(list.slice(0, Math.min(step.keep, length)), length);
          } else if (step.kind === 'restore') context.restore(list.slice(0, step.keep));
          expect(tally.totals(context.messages)).toEqual(recount(context.messages));
        }
      }),
    );
  });

  it('counts only the messages appended since it last looked', () => {
    const counted: Message[] = [];
    const spy = new TokenCounter(createTokenizer('o200k_base'));
    const countMessage = spy.countMessage.bind(spy);
    spy.countMessage = (entry: Message) => {
      counted.push(entry);
      return countMessage(entry);
    };
    const context = new ActiveContext();
    const tally = new ConversationTally(spy);
    for (let index = 0; index < 1_000; index += 1) context.add(message(index, `message ${index}`, false));
    tally.totals(context.messages);
    expect(counted).toHaveLength(1_000);
    context.add(message(1_000, 'one more', false));
    counted.length = 0;
    tally.totals(context.messages);
    tally.total(context.messages);
    expect(counted.map((entry) => entry.id)).toEqual(['m1000']);
  });
});
