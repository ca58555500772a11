import { turnOf, type Message } from '@ollm/core';

/**
 * For each position, the position of the user turn whose answer it belongs to: the nearest user
 * turn before it that stays in the context (not in `folded`), or -1 before the first. A user
 * message carrying only tool results is no user turn (core's `turnOf`): its results belong to the
 * assistant turn. Checkpoints are placed and merged by this owner, so every user turn keeps an
 * assistant turn after it and the context keeps the strict message shape.
 */
export function segmentOwners(messages: readonly Message[], folded: ReadonlySet<number> = new Set()): number[] {
  let owner = -1;
  return messages.map((message, position) => {
    const current = owner;
    if (turnOf(message) === 'user' && !folded.has(position)) owner = position;
    return current;
  });
}

/** Positions grouped by their owner (`segmentOwners`), groups and positions in ascending order. */
export function groupByOwner(positions: readonly number[], owners: readonly number[]): { owner: number; positions: number[] }[] {
  const groups = new Map<number, number[]>();
  for (const position of [...positions].sort((a, b) => a - b)) {
    const owner = owners[position]!;
    groups.set(owner, [...(groups.get(owner) ?? []), position]);
  }
  return [...groups].map(([owner, members]) => ({ owner, positions: members })).sort((a, b) => a.positions[0]! - b.positions[0]!);
}
