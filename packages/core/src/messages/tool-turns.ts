import type { Message } from './message.js';

/**
 * Groups message positions that must be kept or removed together: a message carrying tool calls
 * and every message carrying results for them (parallel calls and results spread over several
 * tool messages join one group). A message without tool data is a group of its own.
 * Returns, for each position, the positions of its group in ascending order.
 */
export function toolTurnGroups(messages: readonly Message[]): number[][] {
  const parent = messages.map((_, index) => index);
  const find = (index: number): number => {
    while (parent[index] !== index) {
      parent[index] = parent[parent[index]!]!;
      index = parent[index]!;
    }
    return index;
  };
  const ownerOfCall = new Map<string, number>();
  messages.forEach((message, index) => {
    for (const part of message.parts) {
      if (part.type !== 'tool-call' && part.type !== 'tool-result') continue;
      const owner = ownerOfCall.get(part.callId);
      if (owner === undefined) ownerOfCall.set(part.callId, index);
      else parent[find(index)] = find(owner);
    }
  });
  const members = new Map<number, number[]>();
  messages.forEach((_, index) => {
    const root = find(index);
    const list = members.get(root) ?? [];
    list.push(index);
    members.set(root, list);
  });
  return messages.map((_, index) => members.get(find(index))!);
}
