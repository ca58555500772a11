import { describe, expect, it } from 'vitest';
import { type TokenCounting, createTokenizer, type Message, TokenCounter } from '@ollm/core';
import { selectSpan } from './select-span.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const say = (id: string, role: Message['role'], text: string): Message => ({ id, role, parts: [{ type: 'text', text }] });
const call = (id: string, ...callIds: string[]): Message => ({
  id,
  role: 'assistant',
  parts: callIds.map((callId) => ({ type: 'tool-call' as const, callId, name: 'bash', input: {} })),
});
const result = (id: string, callId: string, role: Message['role'] = 'tool'): Message => ({
  id,
  role,
  parts: [{ type: 'tool-result', callId, output: 'out '.repeat(50) }],
});

describe('selectSpan', () => {
  it('takes old assistant/tool messages and keeps calls with all their results (parallel calls, results in several messages)', () => {
    const messages = [
      say('s', 'system', 'sys'),
      say('u', 'user', 'go'),
      call('a', 'c1', 'c2'),
      result('r1', 'c1'),
      result('r2', 'c2'),
      say('t', 'assistant', 'done '.repeat(40)),
      say('u2', 'user', 'recent'),
    ];
    const { span } = selectSpan(messages, tokens, 10);
    expect(span.map((position) => messages[position]!.id)).toEqual(['a', 'r1', 'r2', 't']);
  });

  it('keeps a call whose result sits in the recent window, or in a user message (Anthropic), or next to a pinned result', () => {
    const messages = [
      call('a', 'c1'),
      result('r1', 'c1', 'user'),
      call('b', 'c2'),
      { ...result('r2', 'c2'), pinned: true },
      call('c', 'c3'),
      result('r3', 'c3'),
    ];
    const recent = tokens.countMessage(messages[5]!);
    const { span, recentStart } = selectSpan(messages, tokens, recent);
    expect(recentStart).toBe(5);
    expect(span).toEqual([]);
  });

  it('keeps checkpoints and pinned assistant messages out of the span', () => {
    const checkpoint: Message = { ...say('cp', 'assistant', 'summary'), metadata: { checkpoint: { id: 'x', level: 3, summary: 'summary' } } };
    const messages = [checkpoint, { ...say('p', 'assistant', 'pinned'), pinned: true }, say('a', 'assistant', 'old answer'), say('u', 'user', 'now')];
    expect(selectSpan(messages, tokens, 0).span).toEqual([2]);
  });
});
