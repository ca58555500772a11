import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import { createTokenizer, TokenCounter } from '../index.js';
import { givenTokens, isFoldableUserTurn, userTurnsMayFold } from './user-turn-rule.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const text = (id: string, role: Message['role'], words: string, extra: Partial<Message> = {}): Message => ({
  id,
  role,
  parts: [{ type: 'text', text: words }],
  ...extra,
});

describe('the long-chat rule', () => {
  const chat: Message[] = [
    text('s', 'system', 'A chat.'),
    text('u0', 'user', 'Hello, I am Ana and I moved to Lisbon last year with my two cats.'),
    text('a0', 'assistant', 'Nice!'),
    text('u1', 'user', 'We found a flat near the river, with a balcony over the old tram line.'),
    text('a1', 'assistant', 'Lovely.'),
    text('u2', 'user', 'My sister visits in May; she has never seen the sea in winter.', { pinned: true }),
    text('a2', 'assistant', 'Great.'),
    { id: 'r', role: 'user', parts: [{ type: 'tool-result', callId: 'c', output: 'ok' }] },
    text('u3', 'user', 'What should we see first?'),
  ];

  it('applies when the system and user messages take over half the budget, not at or under it', () => {
    const given = givenTokens(chat, tokens);
    expect(given).toBe(tokens.countMessages(chat.filter((message) => message.role === 'system' || message.role === 'user')));
    expect(userTurnsMayFold(chat, given * 2 - 1, tokens)).toBe(true);
    expect(userTurnsMayFold(chat, given * 2, tokens)).toBe(false);
    expect(userTurnsMayFold(chat, undefined, tokens)).toBe(false);
  });

  it('never folds the task, the last user turn, a pinned one or one that carries tool results', () => {
    const foldable = chat.flatMap((message, position) => (isFoldableUserTurn(chat, position) ? [message.id] : []));
    expect(foldable).toEqual(['u1']);
  });
});
