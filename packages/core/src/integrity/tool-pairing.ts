import type { Message } from '../messages/message.js';
import { messagesMemo } from './messages-memo.js';

/**
 * Checks tool call / result pairing in `output` against `input`:
 * - every tool result in the output follows a tool call with the same id earlier in the output;
 * - a call whose result exists in the input keeps its result in the output, and the reverse.
 * Calls still waiting for a result in the input (the last turn) may stay unanswered.
 * Returns a description of the first problem, or undefined.
 */
export function findToolPairingProblem(input: readonly Message[], output: readonly Message[]): string | undefined {
  const answeredInInput = answeredCalls(input);
  const calls = new Set<string>();
  const results = new Set<string>();
  for (const [position, message] of output.entries()) {
    for (const part of message.parts) {
      if (part.type === 'tool-call') {
        calls.add(part.callId);
      } else if (part.type === 'tool-result') {
        if (!calls.has(part.callId)) return `tool result for call "${part.callId}" (message ${position}) has no earlier tool call`;
        results.add(part.callId);
      }
    }
  }
  for (const callId of calls) {
    if (answeredInInput.has(callId) && !results.has(callId)) return `tool call "${callId}" lost its result`;
  }
  return undefined;
}

/** The call ids an array's tool results answer (the input of one stage is the output of the one before). */
const answeredCalls = messagesMemo((messages): ReadonlySet<string> => {
  const answered = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool-result') answered.add(part.callId);
  }
  return answered;
});
