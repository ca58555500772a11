import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '@ollm/core';
import { NameIndex } from './name-index.js';

const names = ['parse_limit', 'QuerySet', '/testbed/app/lookup.py', 'ValueError', 'lookup.py', 'render_view', 'get_next', 'HTTPResponse'];

describe('NameIndex', () => {
  it('rankTop(names, max) is rank(names) cut to max, ties broken by order as rank breaks them', () => {
    const message = (words: readonly string[], role: Message['role']): Message => ({
      id: words.join(),
      role,
      parts: [{ type: 'text', text: words.join(' ') }],
    });
    const conversation = fc.array(
      fc.record({ words: fc.subarray(names, { minLength: 1 }), role: fc.constantFrom<Message['role']>('assistant', 'tool', 'user') }),
      { minLength: 1, maxLength: 12 },
    );
    fc.assert(
      fc.property(conversation, fc.array(fc.constantFrom(...names, 'unknown_name'), { maxLength: 30 }), fc.nat(12), (steps, asked, max) => {
        const messages = steps.map((step) => message(step.words, step.role));
        const index = new NameIndex(messages, (position) => messages[position]!.role === 'user');
        expect(index.rankTop(asked, max)).toEqual(index.rank(asked).slice(0, max));
      }),
      { numRuns: 500 },
    );
  });

  it('ids follow first mention; ids of unknown names are left out', () => {
    const messages: Message[] = [
      { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'see parse_limit and QuerySet' }] },
      { id: 'b', role: 'tool', parts: [{ type: 'tool-result', callId: 'c', output: 'QuerySet then render_view' }] },
    ];
    const index = new NameIndex(messages, () => false);
    expect([...index.idsOf(['render_view', 'nothing_here', 'parse_limit'])]).toEqual([2, 0]);
    expect(index.nameOf(1)).toBe('QuerySet');
    expect(index.idOf('nothing_here')).toBe(-1);
    expect(index.mentionedAfterId(0, 0)).toBe(false);
    expect(index.mentionedAfterId(1, 0)).toBe(true);
  });
});
