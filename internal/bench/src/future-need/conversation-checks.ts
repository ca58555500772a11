import { findToolPairingProblem, type Message, type ToolCallPart } from '@ollm/core';
import { decodedArguments } from './searchable-parts.js';

export interface ConversationCheck {
  /** Core's findToolPairingProblem: a result before (or without) its call, or a call that lost its result. */
  readonly pairingProblem?: string;
  /** The system message and the first user message (the task) are in the output, unchanged. */
  readonly taskKept: boolean;
  /**
   * A tool call whose arguments (decoded) differ from the input's call with the same id and carry
   * no 12-hex reference (REFERENCE) to what was cut: which call, and why.
   */
  readonly shortenedCallWithoutReference?: string;
  /** Paired, the task kept, and every shortened call says so in place. */
  readonly valid: boolean;
}

/** A reference to what a compaction took out: 12 hex digits (as ollm's references are) in the shortened text. */
export const REFERENCE = /\b[0-9a-f]{12}\b/;

function sameMessage(a: Message, b: Message): boolean {
  return a.id === b.id && a.role === b.role && JSON.stringify(a.parts) === JSON.stringify(b.parts);
}

function toolCalls(messages: readonly Message[]): ToolCallPart[] {
  return messages.flatMap((message) => message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call'));
}

/**
 * The first tool call of `output` whose decoded arguments are none of those of `input`'s calls
 * with the same id (a transcript may reuse an id) and hold no REFERENCE: a shortening that does not
 * say so in place (the model would take the shortened command for what it ran).
 */
export function findShortenedCallWithoutReference(input: readonly Message[], output: readonly Message[]): string | undefined {
  const original = new Map<string, ToolCallPart[]>();
  for (const part of toolCalls(input)) original.set(part.callId, [...(original.get(part.callId) ?? []), part]);
  for (const part of toolCalls(output)) {
    const before = original.get(part.callId);
    if (before === undefined || (part.rawInput !== undefined && before.some((call) => call.rawInput === part.rawInput))) continue;
    const after = decodedArguments(part);
    if (!before.some((call) => decodedArguments(call) === after) && !REFERENCE.test(after)) return `tool call ${part.callId} was shortened without a reference`;
  }
  return undefined;
}

/** Whether `output` is still a conversation a model can continue from `input`'s task. */
export function checkConversation(input: readonly Message[], output: readonly Message[]): ConversationCheck {
  const pairingProblem = findToolPairingProblem(input, output);
  const required = [input.find((message) => message.role === 'system'), input.find((message) => message.role === 'user')];
  const taskKept = required.every((message) => message === undefined || output.some((kept) => sameMessage(kept, message)));
  const shortened = findShortenedCallWithoutReference(input, output);
  return {
    ...(pairingProblem ? { pairingProblem } : {}),
    taskKept,
    ...(shortened ? { shortenedCallWithoutReference: shortened } : {}),
    valid: pairingProblem === undefined && taskKept && shortened === undefined,
  };
}
