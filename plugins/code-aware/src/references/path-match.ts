/** Strips what differs between spellings of one path: `./` and trailing slashes. */
export function normalisePath(path: string): string {
  return path.replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

/**
 * True when two spellings name the same file: equal, or one is a path suffix of the other
 * (`django/db/x.py` and `/testbed/django/db/x.py`), so a `cd` the reader could not see still matches.
 */
export function pathsMatch(first: string, second: string): boolean {
  return normalisedPathsMatch(normalisePath(first), normalisePath(second));
}

/** `pathsMatch` of two paths already normalised with `normalisePath`. */
export function normalisedPathsMatch(a: string, b: string): boolean {
  if (a === b) return true;
  return (
    (a.length > b.length && a.endsWith(b) && a[a.length - b.length - 1] === '/') || (b.length > a.length && b.endsWith(a) && b[b.length - a.length - 1] === '/')
  );
}

/**
 * The file name of a path, as `pathsMatch` compares it: two paths that match always have the same
 * file name, so grouping by it leaves only paths that may match to compare.
 */
export function fileNameOf(path: string): string {
  return normalisedFileName(normalisePath(path));
}

/** `fileNameOf` a path already normalised. */
export function normalisedFileName(normalised: string): string {
  return normalised.slice(normalised.lastIndexOf('/') + 1);
}
