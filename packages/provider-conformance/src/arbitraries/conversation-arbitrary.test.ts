import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findToolPairingProblem, messageText, toolCalls, type Message } from '@ollm/core';
import { conversationArbitrary } from './conversation-arbitrary.js';

const samples = fc.sample(conversationArbitrary(), { numRuns: 120, seed: 20_251_130 });

function problemsOf(messages: readonly Message[]): string[] {
  const problems: string[] = [];
  const ids = messages.map((message) => message.id);
  if (new Set(ids).size !== ids.length) problems.push('duplicate ids');
  const pairing = findToolPairingProblem(messages, messages);
  if (pairing) problems.push(pairing);
  messages.forEach((message, index) => {
    if (message.role === 'system' && index !== 0) problems.push(`system message at ${index}`);
    if (message.parts.length === 0) problems.push(`message ${index} has no parts`);
  });
  const timestamps = messages.flatMap((message) => (message.timestamp ? [Date.parse(message.timestamp)] : []));
  if (timestamps.some((time, index) => index > 0 && time < timestamps[index - 1]!)) problems.push('timestamps out of order');
  const callIds = messages.flatMap((message) => toolCalls(message).map((call) => call.callId));
  if (new Set(callIds).size !== callIds.length) problems.push('duplicate call ids');
  return problems;
}

describe('conversationArbitrary', () => {
  it('produces only valid conversations', () => {
    for (const messages of samples) expect(problemsOf(messages)).toEqual([]);
  });

  it.each<[string, (messages: readonly Message[]) => boolean]>([
    ['a system prompt first', (messages) => messages[0]?.role === 'system'],
    ['no system prompt', (messages) => messages[0]?.role !== 'system'],
    ['parallel calls', (messages) => messages.some((message) => toolCalls(message).length > 1)],
    ['a trailing call without result', (messages) => toolCalls(messages.at(-1)!).length > 0],
    ['reasoning parts', (messages) => messages.some((message) => message.parts.some((part) => part.type === 'reasoning'))],
    ['<think> blocks', (messages) => messages.some((message) => messageText(message).includes('<think>'))],
    ['pinned messages', (messages) => messages.some((message) => message.pinned === true)],
    [
      'JSON tool outputs over 2 KB',
      (messages) =>
        messages.some((message) => message.parts.some((part) => part.type === 'tool-result' && part.output.length > 2048 && part.output.startsWith('{'))),
    ],
    [
      'code tool outputs over 2 KB',
      (messages) =>
        messages.some((message) => message.parts.some((part) => part.type === 'tool-result' && part.output.length > 2048 && part.output.includes('def '))),
    ],
    ['error tool results', (messages) => messages.some((message) => message.parts.some((part) => part.type === 'tool-result' && part.isError === true))],
    ['timestamps on some messages only', (messages) => messages.some((message) => message.timestamp) && messages.some((message) => !message.timestamp)],
    [
      'results answered out of call order',
      (messages) =>
        messages.some((message, index) => {
          const calls = toolCalls(message);
          const next = messages[index + 1]?.parts[0];
          return calls.length > 1 && next?.type === 'tool-result' && next.callId !== calls[0]!.callId;
        }),
    ],
  ])('sometimes generates %s', (_, hasFeature) => {
    expect(samples.some(hasFeature)).toBe(true);
  });

  it('respects the exchange bounds', () => {
    const [short] = fc.sample(conversationArbitrary({ minExchanges: 2, maxExchanges: 2, longToolOutputs: false }), { numRuns: 1, seed: 7 });
    expect(short!.filter((message) => message.role === 'user')).toHaveLength(2);
  });
});
