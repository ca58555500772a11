import type { Message, ToolResultPart } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { maskedMessage } from './masked-message.js';

const message: Message = {
  id: 'm2',
  role: 'tool',
  parts: [
    { type: 'tool-result', callId: 'c1', output: 'a very long output' },
    { type: 'tool-result', callId: 'c2', output: 'another long output' },
  ],
};
const placeholder = (output: string): ToolResultPart => ({ type: 'tool-result', callId: 'c1', output });

describe('maskedMessage', () => {
  it('gives the object made last time for the same message and equal parts', () => {
    const first = maskedMessage(message, [placeholder('[masked 1]'), message.parts[1]!]);
    expect(first).not.toBe(message);
    expect(first.parts[0]).toEqual(placeholder('[masked 1]'));
    expect(first.parts[1]).toBe(message.parts[1]);
    expect(maskedMessage(message, [placeholder('[masked 1]'), message.parts[1]!])).toBe(first);
  });

  it('makes a new object when a part differs, or for another message', () => {
    const first = maskedMessage(message, [placeholder('[masked 1]'), message.parts[1]!]);
    const other = maskedMessage(message, [placeholder('[masked 2]'), message.parts[1]!]);
    expect(other).not.toBe(first);
    expect(other.parts[0]).toEqual(placeholder('[masked 2]'));
    expect(maskedMessage(message, [{ ...placeholder('[masked 2]'), isError: true }, message.parts[1]!])).not.toBe(other);
    const copy = { ...message };
    expect(maskedMessage(copy, [placeholder('[masked 2]'), message.parts[1]!])).not.toBe(other);
  });
});
