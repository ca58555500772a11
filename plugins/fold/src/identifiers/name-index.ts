import type { Message } from '@ollm/core';
import type { NameRanking } from '../digest/name-list.js';
import { extractIdentifiers, type IdentifierKind } from './extract-identifiers.js';
import { visibleText } from './visible-text.js';

interface NameRecord {
  /** 0, 1, 2 … in order of first mention. */
  readonly id: number;
  readonly kind: IdentifierKind;
  /** Message positions whose text mentions the name, ascending. */
  readonly positions: number[];
  /** How many of those are the agent's own words or calls (assistant messages). */
  authored: number;
  /** See `value`; set once every message is read. */
  value: number;
}

interface Ranked {
  readonly name: string;
  readonly order: number;
  readonly value: number;
}

/** Best first; first appearance breaks ties, so the order is deterministic. */
function better(a: Ranked, b: Ranked): number {
  return b.value - a.value || a.order - b.order;
}

/**
 * Where each identifier of a conversation is mentioned. Content an agent refers to again later is
 * worth more than content never mentioned again: a name's value grows with the messages that
 * mention it (the agent's own mentions count double) and with how recent its last mention is.
 */
export class NameIndex implements NameRanking {
  private readonly records = new Map<string, NameRecord>();
  private readonly byId: string[] = [];
  private readonly namesAt: ReadonlyMap<string, IdentifierKind>[];
  private readonly length: number;
  /** Names that system and user messages show: never dropped, so never worth listing in a digest. */
  readonly alwaysVisible: ReadonlySet<string>;
  /** By id: 1 for a name in `alwaysVisible`. */
  readonly alwaysVisibleIds: Uint8Array;
  /** By id: the last position that mentions the name. */
  private readonly lastMention: Int32Array;

  /**
   * `namesOf` gives the identifiers of the message at a position when they are known already;
   * `shared` returns the set of names the fixed messages show kept from an earlier conversation
   * with the same fixed messages (an equal set, made by `build`), so what was read against it holds.
   */
  constructor(
    messages: readonly Message[],
    isFixed: (index: number) => boolean,
    namesOf: (position: number) => ReadonlyMap<string, IdentifierKind> = (position) => extractIdentifiers(visibleText(messages[position]!)),
    shared: (build: () => ReadonlySet<string>) => ReadonlySet<string> = (build) => build(),
  ) {
    this.length = messages.length;
    const alwaysVisible = new Set<string>();
    this.namesAt = messages.map((message, position) => {
      const names = namesOf(position);
      const fixed = isFixed(position);
      const authored = message.role === 'assistant' ? 1 : 0;
      for (const [name, kind] of names) {
        if (fixed) alwaysVisible.add(name);
        let record = this.records.get(name);
        if (record === undefined) {
          record = { id: this.byId.length, kind, positions: [], authored: 0, value: 0 };
          this.records.set(name, record);
          this.byId.push(name);
        }
        record.positions.push(position);
        record.authored += authored;
      }
      return names;
    });
    this.alwaysVisible = shared(() => alwaysVisible);
    const length = Math.max(1, this.length);
    this.alwaysVisibleIds = new Uint8Array(this.byId.length);
    for (const name of this.alwaysVisible) this.alwaysVisibleIds[this.records.get(name)!.id] = 1;
    this.lastMention = new Int32Array(this.byId.length);
    for (const record of this.records.values()) {
      const last = record.positions.at(-1) ?? 0;
      const kindWeight = record.kind === 'code' ? 1 : 1.5;
      record.value = kindWeight * (record.positions.length + record.authored) + last / length;
      this.lastMention[record.id] = last;
    }
  }

  /** How many names the conversation mentions: ids are 0 to size - 1. */
  get size(): number {
    return this.byId.length;
  }

  /** The ids of those of `names` the conversation mentions, in order. */
  idsOf(names: Iterable<string>): Int32Array {
    const ids: number[] = [];
    for (const name of names) {
      const record = this.records.get(name);
      if (record !== undefined) ids.push(record.id);
    }
    return Int32Array.from(ids);
  }

  nameOf(id: number): string {
    return this.byId[id]!;
  }

  /** The id of `name`, or -1 when the conversation does not mention it. */
  idOf(name: string): number {
    return this.records.get(name)?.id ?? -1;
  }

  /** True when a message after `position` mentions the name with id `id`. */
  mentionedAfterId(id: number, position: number): boolean {
    return this.lastMention[id]! > position;
  }

  /** The identifiers message `position` mentions, in order of appearance. */
  namesOf(position: number): ReadonlyMap<string, IdentifierKind> {
    return this.namesAt[position] ?? new Map();
  }

  kindOf(name: string): IdentifierKind | undefined {
    return this.records.get(name)?.kind;
  }

  /** The value of keeping `name` in view: mentions (the agent's count double), then recency. */
  value(name: string): number {
    return this.records.get(name)?.value ?? 0;
  }

  /** `names` best first (by value; first appearance breaks ties, so the order is deterministic). */
  rank(names: Iterable<string>): string[] {
    return [...names]
      .map((name, order) => ({ name, order, value: this.value(name) }))
      .sort(better)
      .map((entry) => entry.name);
  }

  /** `rank(names).slice(0, max)`, without sorting all of `names` when `max` is small. */
  rankTop(names: readonly string[], max: number): string[] {
    if (max <= 0 || names.length === 0) return [];
    if (names.length <= max * 2) return this.rank(names).slice(0, max);
    // The best `max` so far, best first: each name is placed by insertion (max is a few dozen).
    const top: Ranked[] = [];
    for (let order = 0; order < names.length; order++) {
      const entry = { name: names[order]!, order, value: this.value(names[order]!) };
      if (top.length === max && better(entry, top[max - 1]!) >= 0) continue;
      let at = top.length === max ? max - 1 : top.length;
      while (at > 0 && better(entry, top[at - 1]!) < 0) {
        top[at] = top[at - 1]!;
        at--;
      }
      top[at] = entry;
    }
    return top.map((entry) => entry.name);
  }
}
