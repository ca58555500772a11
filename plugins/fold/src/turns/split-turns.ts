import { toolTurnGroups, type Message } from '@ollm/core';

/** Messages kept or folded together: an assistant message with the results of its tool calls, or one message alone. */
export interface Turn {
  /** Positions in the conversation, ascending. */
  readonly positions: readonly number[];
  /** True when the turn holds a message nothing may edit (system, user, pinned, checkpoint). */
  readonly fixed: boolean;
}

/** Splits a conversation into turns, in order; a tool call and its results always share a turn. */
export function splitTurns(messages: readonly Message[], isFixed: (index: number) => boolean): Turn[] {
  const groups = toolTurnGroups(messages);
  const turns: Turn[] = [];
  const placed = new Set<number>();
  for (let index = 0; index < messages.length; index++) {
    if (placed.has(index)) continue;
    const positions = groups[index]!;
    for (const position of positions) placed.add(position);
    turns.push({ positions, fixed: positions.some(isFixed) });
  }
  return turns;
}
