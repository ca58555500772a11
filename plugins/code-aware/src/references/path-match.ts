/** Strips what differs between spellings of one path: `./` and trailing slashes. */
export function normalisePath(path: string): string {
  return path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

/**
 * True when two spellings name the same file: equal, or one is a path suffix of the other
 * (`django/db/x.py` and `/testbed/django/db/x.py`), so a `cd` the reader could not see still matches.
 */
export function pathsMatch(first: string, second: string): boolean {
  const a = normalisePath(first);
  const b = normalisePath(second);
  if (a === b) return true;
  return a.endsWith(`/${b}`) || b.endsWith(`/${a}`);
}
