import { findToolPairingProblem, type Message } from '@ollm/core';

export interface ConversationCheck {
  /** Core's findToolPairingProblem: a result before (or without) its call, or a call that lost its result. */
  readonly pairingProblem?: string;
  /** The system message and the first user message (the task) are in the output, unchanged. */
  readonly taskKept: boolean;
  /** Paired and the task kept. */
  readonly valid: boolean;
}

function sameMessage(a: Message, b: Message): boolean {
  return a.id === b.id && a.role === b.role && JSON.stringify(a.parts) === JSON.stringify(b.parts);
}

/** Whether `output` is still a conversation a model can continue from `input`'s task. */
export function checkConversation(input: readonly Message[], output: readonly Message[]): ConversationCheck {
  const pairingProblem = findToolPairingProblem(input, output);
  const required = [input.find((message) => message.role === 'system'), input.find((message) => message.role === 'user')];
  const taskKept = required.every((message) => message === undefined || output.some((kept) => sameMessage(kept, message)));
  return { ...(pairingProblem ? { pairingProblem } : {}), taskKept, valid: pairingProblem === undefined && taskKept };
}
