import type { Message } from '@ollm/core';
import { extractIdentifiers, type IdentifierKind } from './extract-identifiers.js';
import { visibleText } from './visible-text.js';

interface NameRecord {
  readonly kind: IdentifierKind;
  /** Message positions whose text mentions the name, ascending. */
  readonly positions: number[];
  /** How many of those are the agent's own words or calls (assistant messages). */
  authored: number;
}

/**
 * Where each identifier of a conversation is mentioned. Content an agent refers to again later is
 * worth more than content never mentioned again: a name's value grows with the messages that
 * mention it (the agent's own mentions count double) and with how recent its last mention is.
 */
export class NameIndex {
  private readonly records = new Map<string, NameRecord>();
  private readonly namesAt: ReadonlyMap<string, IdentifierKind>[];
  private readonly length: number;
  /** Names that system and user messages show: never dropped, so never worth listing in a digest. */
  readonly alwaysVisible = new Set<string>();

  constructor(messages: readonly Message[], isFixed: (index: number) => boolean) {
    this.length = messages.length;
    this.namesAt = messages.map((message, position) => {
      const names = extractIdentifiers(visibleText(message));
      for (const [name, kind] of names) {
        if (isFixed(position)) this.alwaysVisible.add(name);
        let record = this.records.get(name);
        if (record === undefined) {
          record = { kind, positions: [], authored: 0 };
          this.records.set(name, record);
        }
        record.positions.push(position);
        if (message.role === 'assistant') record.authored++;
      }
      return names;
    });
  }

  /** The identifiers message `position` mentions, in order of appearance. */
  namesOf(position: number): ReadonlyMap<string, IdentifierKind> {
    return this.namesAt[position] ?? new Map();
  }

  kindOf(name: string): IdentifierKind | undefined {
    return this.records.get(name)?.kind;
  }

  /** Messages after `position` that mention `name`. */
  laterMentions(name: string, position: number): number {
    const positions = this.records.get(name)?.positions ?? [];
    let count = 0;
    for (let index = positions.length - 1; index >= 0 && positions[index]! > position; index--) count++;
    return count;
  }

  /** The value of keeping `name` in view: mentions (the agent's count double), then recency. */
  value(name: string): number {
    const record = this.records.get(name);
    if (record === undefined) return 0;
    const last = record.positions.at(-1) ?? 0;
    const kindWeight = record.kind === 'code' ? 1 : 1.5;
    return kindWeight * (record.positions.length + record.authored) + last / Math.max(1, this.length);
  }

  /** `names` best first (by value; first appearance breaks ties, so the order is deterministic). */
  rank(names: Iterable<string>): string[] {
    return [...names]
      .map((name, order) => ({ name, order, value: this.value(name) }))
      .sort((a, b) => b.value - a.value || a.order - b.order)
      .map((entry) => entry.name);
  }
}
