import { sameMessageObjects, type Message } from '@ollm/core';
import type { CodeAwareCache } from '../cache/code-aware-cache.js';
import type { CodeView } from '../views/code-view.js';
import { LineReferences } from './line-references.js';

interface Known {
  /** The messages as they were when the references were built, element by element. */
  readonly messages: readonly Message[];
  /** The file views' part keys, in order. */
  readonly viewKeys: string;
  readonly cache: CodeAwareCache;
  readonly references: LineReferences;
}

const known = new WeakMap<readonly Message[], Known>();
/**
 * The last few built, whatever array they came in: a pipeline stage gets a new array from the
 * stage before on every compaction, holding the same message objects when nothing changed.
 */
const recent: Known[] = [];
const RECENT_ENTRIES = 2;

/**
 * The line references of `messages` with these file views: those built before for an array that
 * held the same message objects (a live agent compacts one conversation again and again, and
 * indexing it is most of a warm compaction's time), else new ones. Element by element, so an
 * array changed in place (a message pushed or replaced) is indexed again.
 */
export function lineReferencesFor(messages: readonly Message[], views: ReadonlyMap<string, CodeView>, cache: CodeAwareCache): LineReferences {
  const viewKeys = [...views.keys()].join(' ');
  const matches = (entry: Known | undefined): entry is Known =>
    entry !== undefined && entry.cache === cache && entry.viewKeys === viewKeys && sameMessageObjects(entry.messages, messages);
  const entry = known.get(messages);
  if (matches(entry)) return entry.references;
  const other = recent.find(matches);
  if (other !== undefined) {
    known.set(messages, other);
    return other.references;
  }
  const made: Known = { messages: [...messages], viewKeys, cache, references: new LineReferences(messages, views, cache) };
  known.set(messages, made);
  recent.unshift(made);
  recent.length = Math.min(recent.length, RECENT_ENTRIES);
  return made.references;
}
