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
  const pairing = pairingOf(output);
  if (pairing.orphan !== undefined) return pairing.orphan;
  const answeredInInput = answeredCalls(input);
  for (const callId of pairing.calls) {
    if (answeredInInput.has(callId) && !pairing.results.has(callId)) return `tool call "${callId}" lost its result`;
  }
  return undefined;
}

interface Pairing {
  /** The first tool result with no earlier call, described. */
  readonly orphan?: string;
  /** Call ids in order of first appearance, and the ids the results answer. */
  readonly calls: ReadonlySet<string>;
  readonly results: ReadonlySet<string>;
}

/** An array's calls and results (and its first orphaned result), read once while it holds the same messages. */
const pairingOf = messagesMemo((messages): Pairing => {
  const calls = new Set<string>();
  const results = new Set<string>();
  for (let position = 0; position < messages.length; position += 1) {
    for (const part of messages[position]!.parts) {
      if (part.type === 'tool-call') {
        calls.add(part.callId);
      } else if (part.type === 'tool-result') {
        if (!calls.has(part.callId)) return { orphan: `tool result for call "${part.callId}" (message ${position}) has no earlier tool call`, calls, results };
        results.add(part.callId);
      }
    }
  }
  return { calls, results };
});

/** The call ids an array's tool results answer (the input of one stage is the output of the one before). */
const answeredCalls = messagesMemo((messages): ReadonlySet<string> => {
  const answered = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) if (part.type === 'tool-result') answered.add(part.callId);
  }
  return answered;
});
