import type { Message } from '@ollm/core';
import { extractIdentifiers, type IdentifierKind } from '../identifiers/extract-identifiers.js';
import { visibleText } from '../identifiers/visible-text.js';

/** What the conversation says about one name: who mentioned it, how often, how lately. */
export interface NameStats {
  readonly kind: IdentifierKind;
  /** Messages that mention it. */
  mentions: number;
  /** Assistant messages (prose or call arguments) that mention it: the agent's own interest. */
  agentMentions: number;
  /** Position of the newest message that mentions it. */
  last: number;
  /** A system, user or pinned message shows it: a compaction keeps those whole. */
  inFixed: boolean;
}

export interface ConversationNames {
  readonly stats: ReadonlyMap<string, NameStats>;
  /** Each message's names, by position. */
  readonly ofMessage: readonly (readonly string[])[];
}

/** Every message's identifiers and each name's mentions, read once. */
export function conversationNames(messages: readonly Message[], fixedAt: readonly boolean[]): ConversationNames {
  const stats = new Map<string, NameStats>();
  const ofMessage: string[][] = [];
  for (const [position, message] of messages.entries()) {
    const found = extractIdentifiers(visibleText(message));
    ofMessage.push([...found.keys()]);
    for (const [name, kind] of found) {
      let entry = stats.get(name);
      if (!entry) {
        entry = { kind, mentions: 0, agentMentions: 0, last: position, inFixed: false };
        stats.set(name, entry);
      }
      entry.mentions += 1;
      entry.last = position;
      if (message.role === 'assistant') entry.agentMentions += 1;
      if (fixedAt[position]) entry.inFixed = true;
    }
  }
  return { stats, ofMessage };
}

const KIND_WEIGHT: Readonly<Record<IdentifierKind, number>> = { path: 1.5, error: 1.5, id: 1.5, code: 1 };

/**
 * How likely the agent is to need a name again: paths, errors and ids weigh more than code
 * names; each message of the agent's that used it adds (with diminishing returns); a recent last
 * mention counts up to twice an old one; a name the task shows is worth less here, as the task
 * stays in view whole.
 */
export function nameWeight(stats: NameStats, messageCount: number): number {
  const recency = 0.5 + (messageCount <= 1 ? 1 : stats.last / (messageCount - 1));
  const interest = 1 + Math.log2(1 + stats.agentMentions) + 0.25 * Math.log2(stats.mentions);
  return KIND_WEIGHT[stats.kind] * recency * interest * (stats.inFixed ? 0.6 : 1);
}
