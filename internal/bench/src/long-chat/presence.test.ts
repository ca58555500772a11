import { textPart, withParts, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { readLocomoChat } from './locomo.js';
import { answerPresent, contextText, evidenceShare, normaliseAnswer, turnPresent } from './presence.js';
import { syntheticDocument } from './test-support/synthetic-chat.js';

const chat = readLocomoChat(syntheticDocument(2, 4), 'synthetic');
const without = (...ids: string[]) => chat.messages.filter((message) => !ids.includes(message.id));

describe('evidence present', () => {
  it('finds an evidence turn while its message is kept and loses it when the message is removed', () => {
    expect(evidenceShare(contextText(chat.messages), ['D1:2', 'D2:3'], chat.turns)).toBe(1);
    expect(evidenceShare(contextText(without('D2:3')), ['D1:2', 'D2:3'], chat.turns)).toBe(0.5);
    expect(evidenceShare(contextText(without('D1:2', 'D2:3')), ['D1:2', 'D2:3'], chat.turns)).toBe(0);
    expect(evidenceShare(contextText(chat.messages), [], chat.turns)).toBeUndefined();
  });

  it('finds the turn after its session date prefix, but not a shortened copy of it', () => {
    // D2:1 carries the session 2 date line before its text.
    expect(turnPresent(contextText(chat.messages), chat.turns.get('D2:1')!)).toBe(true);
    const shortened = chat.messages.map((message) => (message.id === 'D2:1' ? withParts(message, [textPart(chat.turns.get('D2:1')!.slice(0, 30))]) : message));
    expect(turnPresent(contextText(shortened), chat.turns.get('D2:1')!)).toBe(false);
  });

  it('compares with whitespace collapsed, in any part and role, and case-sensitively', () => {
    const messages: Message[] = [
      { id: 's', role: 'system', parts: [textPart('Summary:\n  The  Kite\tflew  high.\n')] },
      { id: 't', role: 'tool', parts: [{ type: 'tool-result', callId: 'c', output: 'a quiet   harbor' }] },
    ];
    const context = contextText(messages);
    expect(turnPresent(context, 'The Kite flew high.')).toBe(true);
    expect(turnPresent(context, ' The kite\nflew high. ')).toBe(false);
    expect(turnPresent(context, 'a quiet harbor')).toBe(true);
    expect(turnPresent(context, '')).toBe(false);
  });

  it('never matches across two messages', () => {
    const messages: Message[] = [
      { id: 'a', role: 'user', parts: [textPart('first half')] },
      { id: 'b', role: 'assistant', parts: [textPart('second half')] },
    ];
    expect(turnPresent(contextText(messages), 'half second')).toBe(false);
    expect(answerPresent(contextText(messages), 'half second')).toBe(false);
  });
});

describe('answer present', () => {
  it('normalises: lowercase, whitespace collapsed, trailing punctuation stripped', () => {
    expect(normaliseAnswer('  The Blue\n Lake!. ')).toBe('the blue lake');
    expect(normaliseAnswer('Mr. Smith')).toBe('mr. smith');
    expect(normaliseAnswer('...')).toBe('');
  });

  it('is a substring of the lowercased, collapsed context; lost when the message holding it is removed', () => {
    const messages: Message[] = [
      { id: 'a', role: 'user', parts: [textPart('We went to  the BLUE\nlake in 2021, it was lovely.')] },
      { id: 'b', role: 'assistant', parts: [textPart('Sounds great.')] },
    ];
    expect(answerPresent(contextText(messages), 'The blue lake.')).toBe(true);
    expect(answerPresent(contextText(messages), String(2021))).toBe(true);
    expect(answerPresent(contextText(messages), 'the red lake')).toBe(false);
    expect(answerPresent(contextText(messages.slice(1)), 'The blue lake.')).toBe(false);
    expect(answerPresent(contextText(messages), '?')).toBe(false);
  });
});
