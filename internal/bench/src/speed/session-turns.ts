import type { Message } from '@ollm/core';
import type { BenchConversation } from '../fixture-set.js';
import { turnsOf, type Turn } from '../goal-aware-workload.js';

/** The SWE-agent turns a simulated session draws from, in order (an assistant message and its tool results). */
export function sessionTurns(conversations: readonly BenchConversation[]): Turn[] {
  const turns = turnsOf(conversations.filter((conversation) => conversation.kind === 'swe-agent'));
  if (turns.length === 0) throw new Error('A simulated session needs SWE-agent turns.');
  return turns;
}

/**
 * A cheap copy of a turn for filling a context: new message and call ids; text parts shared (so
 * their counts are cached), tool parts new objects carrying the new call id.
 */
export function filledTurn(turn: Turn, serial: number): Message[] {
  const callId = (id: string) => `${id}~fill${serial}`;
  return turn.map((message) => ({
    id: `${message.id}~fill${serial}`,
    role: message.role,
    parts: message.parts.map((part) => (part.type === 'tool-call' || part.type === 'tool-result' ? { ...part, callId: callId(part.callId) } : part)),
  }));
}
