import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import { findToolPairingProblem } from './tool-pairing.js';

/** The check as first written: one pass over the input, one over the output, no memory between calls. */
function referencePairingProblem(input: readonly Message[], output: readonly Message[]): string | undefined {
  const answeredInInput = new Set<string>();
  for (const message of input) for (const part of message.parts) if (part.type === 'tool-result') answeredInInput.add(part.callId);
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const [position, message] of output.entries()) {
    for (const part of message.parts) {
      if (part.type === 'tool-call') calls.add(part.callId);
      else if (part.type === 'tool-result') {
        if (!calls.has(part.callId)) return `tool result for call "${part.callId}" (message ${position}) has no earlier tool call`;
        results.add(part.callId);
      }
    }
  }
  for (const callId of calls) if (answeredInInput.has(callId) && !results.has(callId)) return `tool call "${callId}" lost its result`;
  return undefined;
}

const message = fc.record({
  id: fc.string({ maxLength: 3 }),
  kind: fc.constantFrom('call', 'result', 'text'),
  callId: fc.constantFrom('c1', 'c2', 'c3', 'c4'),
});
const toMessages = (items: readonly { id: string; kind: string; callId: string }[]): Message[] =>
  items.map(({ id, kind, callId }) => ({
    id,
    role: kind === 'result' ? 'tool' : 'assistant',
    parts: [
      kind === 'call'
        ? { type: 'tool-call', callId, name: 'bash', input: {} }
        : kind === 'result'
          ? { type: 'tool-result', callId, output: 'ok' }
          : { type: 'text', text: 'x' },
    ],
  }));

describe('findToolPairingProblem', () => {
  it('finds what a fresh pass finds, for any input and output, asked again or after an output changed in place', () => {
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 12 }),
        fc.array(message, { maxLength: 12 }),
        fc.array(message, { maxLength: 3 }),
        (inputItems, outputItems, more) => {
          const input = toMessages(inputItems);
          const output = toMessages(outputItems);
          expect(findToolPairingProblem(input, output)).toBe(referencePairingProblem(input, output));
          expect(findToolPairingProblem(input, output)).toBe(referencePairingProblem(input, output));
          output.push(...toMessages(more));
          if (output.length > 0) output[0] = toMessages([{ id: 'new', kind: 'result', callId: 'c1' }])[0]!;
          expect(findToolPairingProblem(input, output)).toBe(referencePairingProblem(input, output));
        },
      ),
      { numRuns: 500 },
    );
  });
});
