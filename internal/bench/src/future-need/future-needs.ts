import type { Message } from '@ollm/core';
import type { Cut } from './cut-points.js';
import { extractIdentifiers, holdsIdentifier, type Identifier } from './identifiers.js';
import { searchableParts, searchableText, type PartPlace } from './searchable-parts.js';

/** Where the prefix held a need: in the agent's prose, in its tool-call arguments, or only in tool output. */
export type HeldIn = Exclude<PartPlace, 'system-or-user'>;

export const HELD_IN: readonly HeldIn[] = ['assistant-text', 'tool-call', 'tool-result'];

/** An identifier a later step uses that the prefix's assistant/tool messages already held. */
export interface FutureNeed extends Identifier {
  /**
   * The most lasting place the prefix held it: its prose (`assistant-text`) over its tool-call
   * arguments (`tool-call`) over tool output alone (`tool-result`).
   */
  readonly heldIn: HeldIn;
  /** Messages between the newest prefix message holding it and the cut (0: the last one). */
  readonly age: number;
}

/**
 * The future needs at a cut: identifiers (paths, code names, error types) of the later steps'
 * assistant messages (their prose and decoded tool-call arguments: what the agent writes) that
 * some assistant or tool message of the prefix holds, less those any system or user message of
 * the conversation holds (a valid compaction keeps those, and a later user message hands them over).
 */
export function futureNeeds(conversation: readonly Message[], cut: Cut): FutureNeed[] {
  const given = searchableText(conversation.filter((message) => message.role === 'system' || message.role === 'user'));
  const held = searchableParts(cut.prefix).filter((part) => part.place !== 'system-or-user');
  const used = extractIdentifiers(searchableText(cut.later.filter((message) => message.role === 'assistant')));
  const needs: FutureNeed[] = [];
  for (const identifier of used) {
    if (holdsIdentifier(given, identifier.text)) continue;
    const holders = held.filter((part) => holdsIdentifier(part.text, identifier.text));
    if (holders.length === 0) continue;
    const places = new Set(holders.map((part) => part.place));
    const heldIn = HELD_IN.find((place) => places.has(place))!;
    const newest = Math.max(...holders.map((part) => part.message));
    needs.push({ ...identifier, heldIn, age: cut.prefix.length - 1 - newest });
  }
  return needs;
}

export interface NeedRetention {
  readonly available: number;
  readonly retained: number;
  readonly lost: readonly FutureNeed[];
}

/** Which needs the compacted prefix still holds, anywhere in its messages (decoded as the needs were). */
export function measureNeeds(needs: readonly FutureNeed[], compacted: readonly Message[]): NeedRetention {
  const text = searchableText(compacted);
  const lost = needs.filter((need) => !holdsIdentifier(text, need.text));
  return { available: needs.length, retained: needs.length - lost.length, lost };
}
