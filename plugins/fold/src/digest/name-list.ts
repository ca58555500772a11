import { coveredNames } from '../identifiers/extract-identifiers.js';
import type { NameIndex } from '../identifiers/name-index.js';

/**
 * The names of `names` worth listing, best first, at most `max`: not already in view (`visible`,
 * which system and user messages and the kept text show) and not shown by a longer path listed.
 */
export function namesToList(names: Iterable<string>, index: NameIndex, visible: ReadonlySet<string>, max: number): string[] {
  const candidates = [...new Set(names)].filter((name) => !visible.has(name) && !index.alwaysVisible.has(name));
  const covered = coveredNames(candidates);
  return index.rank(candidates.filter((name) => !covered.has(name))).slice(0, max);
}
