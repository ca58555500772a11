import type { Message, MessagePart } from '@ollm/core';

/**
 * A conversation as the history before its last turn and that turn: the last assistant message
 * that is not pinned, and everything after it (its tool results, a pinned closing message).
 */
export function splitLastTurn(messages: readonly Message[]): { history: Message[]; turn: Message[] } {
  for (let index = messages.length - 1; index > 0; index -= 1) {
    const message = messages[index]!;
    if (message.role === 'assistant' && !message.pinned) return { history: messages.slice(0, index), turn: messages.slice(index) };
  }
  throw new Error('The conversation has no assistant turn after its first message.');
}

function markedPart(part: MessagePart, marker: string): MessagePart {
  const callId = (id: string) => `${id}~${marker}`;
  if (part.type === 'text' || part.type === 'reasoning') return { ...part, text: `${part.text}\n(${marker})` };
  if (part.type === 'tool-call') return { ...part, callId: callId(part.callId) };
  if (part.type === 'tool-result') return { ...part, callId: callId(part.callId), output: `${part.output}\n(${marker})` };
  return { ...part };
}

/**
 * A copy of `turn` that no cache has seen: new message ids and call ids (still paired), and
 * `marker` added to every text, reasoning and tool output, so content-keyed caches miss too.
 * Tool-call arguments are kept as they are.
 */
export function freshTurnCopy(turn: readonly Message[], marker: string): Message[] {
  return turn.map((message) => ({ ...message, id: `${message.id}~${marker}`, parts: message.parts.map((part) => markedPart(part, marker)) }));
}
