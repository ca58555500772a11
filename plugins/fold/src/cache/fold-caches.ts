import type { Message } from '@ollm/core';
import type { MessageFacts } from './message-facts.js';
import type { SavedFormChain } from '../digest/saved-form.js';
import type { TurnEntry } from '../turns/turn-entry.js';
import { BoundedCache } from './bounded-cache.js';

const MEGABYTE = 1024 * 1024;

/**
 * What fold keeps across calls, each cache bounded by entries and by bytes (an estimate: string
 * lengths and a fixed cost per entry). A live agent's conversation is compacted again and again
 * with one more turn each time: what was derived from a message or a turn is found again by its
 * content, so a call costs the new turns and the list work over the cached numbers.
 */
export const FOLD_CACHE_LIMITS = {
  /** Per message (found by its outline, then compared whole): its identifiers, its saved form and that form's tokens. */
  messages: { entries: 50_000, bytes: 32 * MEGABYTE },
  /** Per turn: its renderings at levels 1 to 3 and what they cost. */
  turns: { entries: 20_000, bytes: 32 * MEGABYTE },
  /** sha256 states of saved forms, one chain per first message. */
  savedForms: { entries: 2_000, bytes: 8 * MEGABYTE },
  /** The names the system and user messages of a conversation show. */
  alwaysVisible: { entries: 256, bytes: 4 * MEGABYTE },
  /** Token counts of folded pieces and digests. */
  counts: { entries: 100_000, bytes: 16 * MEGABYTE },
  /** Token counts of names as written in a list, per counting identity. */
  names: { entries: 200_000, bytes: 8 * MEGABYTE },
} as const;

export const foldCaches = {
  messages: new BoundedCache<string, readonly MessageFacts[]>(FOLD_CACHE_LIMITS.messages.entries, FOLD_CACHE_LIMITS.messages.bytes),
  turns: new BoundedCache<string, TurnEntry>(FOLD_CACHE_LIMITS.turns.entries, FOLD_CACHE_LIMITS.turns.bytes),
  savedForms: new BoundedCache<string, SavedFormChain>(FOLD_CACHE_LIMITS.savedForms.entries, FOLD_CACHE_LIMITS.savedForms.bytes),
  counts: new BoundedCache<string, number>(FOLD_CACHE_LIMITS.counts.entries, FOLD_CACHE_LIMITS.counts.bytes),
  alwaysVisible: new BoundedCache<string, ReadonlySet<string>>(FOLD_CACHE_LIMITS.alwaysVisible.entries, FOLD_CACHE_LIMITS.alwaysVisible.bytes),
};

/** Facts by message object: a live session passes the same objects again, found without hashing. */
let factsByObject = new WeakMap<Message, MessageFacts>();

export function cachedFacts(message: Message): MessageFacts | undefined {
  return factsByObject.get(message);
}

export function rememberFacts(message: Message, facts: MessageFacts): void {
  factsByObject.set(message, facts);
}

/** A count cached under `key`, or counted now and kept. */
export function cachedCount(key: string, count: () => number): number {
  let value = foldCaches.counts.get(key);
  if (value === undefined) {
    value = count();
    foldCaches.counts.set(key, value, key.length + 32);
  }
  return value;
}

/** Per counting identity: tokens of `, name` by name, and of ` name` and what follows it in a list, by follower and name. */
const nameCosts = new Map<number, BoundedCache<string, number>>();
const listedNames = new Map<number, BoundedCache<string, number>>();
const FOLLOWERS = [',', '', '\n', ')'];

function perKey<Key>(caches: Map<Key, BoundedCache<string, number>>, key: Key): BoundedCache<string, number> {
  let cache = caches.get(key);
  if (cache === undefined) {
    cache = new BoundedCache(FOLD_CACHE_LIMITS.names.entries, FOLD_CACHE_LIMITS.names.bytes);
    caches.set(key, cache);
  }
  return cache;
}

// Keyed by the name itself: the same string object from one call to the next, so looking it up costs no hashing.
function cachedIn(cache: BoundedCache<string, number>, name: string, count: () => number): number {
  let value = cache.get(name);
  if (value === undefined) {
    value = count();
    cache.set(name, value, name.length + 32);
  }
  return value;
}

/** The tokens of `, name`, cached per counting identity, or counted now and kept. */
export function cachedNameCost(identity: { readonly id: number }, name: string, count: () => number): number {
  return cachedIn(perKey(nameCosts, identity.id), name, count);
}

/** The tokens of ` name` and `follower` (`,`, a line break, `)` or nothing), cached per counting identity. */
export function cachedListedName(identity: { readonly id: number }, name: string, follower: string, count: () => number): number {
  const form = FOLLOWERS.indexOf(follower);
  if (form === -1) return count();
  return cachedIn(perKey(listedNames, identity.id * FOLLOWERS.length + form), name, count);
}

/** Empties every cache: the next call derives everything again (its output is the same). */
export function clearFoldCaches(): void {
  for (const cache of Object.values(foldCaches)) cache.clear();
  nameCosts.clear();
  listedNames.clear();
  factsByObject = new WeakMap();
}
