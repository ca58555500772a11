/**
 * The names an agent comes back to: file paths, code names (snake_case, camelCase, PascalCase
 * with an inner capital), error type names and the quoted ids of JSON documents. A digest keeps these when it drops the text
 * around them, so an agent that folded a file view still knows which files and symbols it saw.
 */
export type IdentifierKind = 'path' | 'code' | 'error' | 'id';

// Anchored after a non-path character: unanchored, a long run of path characters is tried from every position (quadratic).
const PATH = /(?<![\w.-])(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]*\w/g;
const FILE_NAME = /\b[\w-]+\.(?:py|pyi|js|jsx|ts|tsx|mjs|cjs|json|ya?ml|toml|cfg|ini|md|rst|txt|html|css|c|h|cc|cpp|hpp|rs|go|java|kt|rb|php|sh|sql)\b/g;
const ERROR_NAME = /\b[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning|Failure)\b/g;
const SNAKE = /(?<!\\)\b_*[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+_*\b/g;
const CAMEL = /(?<!\\)\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/g;
/** A quoted id-like value of a JSON document: `"SDZQKO"`, `"HAT069"`. */
const QUOTED_ID = /"([A-Z0-9]{5,10})"/g;
const PASCAL = /(?<!\\)\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b/g;
/** `_private` and `__dunder__` names. */
const UNDERSCORED = /(?<![A-Za-z0-9_])_+[A-Za-z][A-Za-z0-9]+_*(?![A-Za-z0-9_])/g;
/** An acronym before a word: `URLField`, `HTTPResponse`. */
const ACRONYM_WORD = /(?<!\\)\b[A-Z]{2,}[a-z]{2,}[A-Za-z0-9]*\b/g;

/** Shorter than this, a name carries too little to be worth a token. */
const MIN_LENGTH = 3;

/** Paths made only of dots and slashes, URLs' `//` and version-like `1.2/3` are not file paths. */
function isPathLike(text: string): boolean {
  if (!/[A-Za-z]/.test(text) || text.includes('//')) return false;
  return text.split('/').filter((segment) => segment.length > 0).length >= 2;
}

/** Every identifier in `text`, in order of first appearance, each once, with its kind. */
export function extractIdentifiers(text: string): Map<string, IdentifierKind> {
  const found = new Map<string, IdentifierKind>();
  const add = (name: string, kind: IdentifierKind): void => {
    if (name.length >= MIN_LENGTH && !found.has(name)) found.set(name, kind);
  };
  for (const match of text.matchAll(PATH)) {
    const path = match[0].replace(/[.:]+$/, '');
    if (isPathLike(path)) add(path, 'path');
  }
  for (const match of text.matchAll(FILE_NAME)) add(match[0], 'path');
  for (const match of text.matchAll(ERROR_NAME)) add(match[0], 'error');
  for (const match of text.matchAll(QUOTED_ID)) if (/[A-Z]/.test(match[1]!)) add(match[1]!, 'id');
  for (const pattern of [SNAKE, UNDERSCORED, CAMEL, PASCAL, ACRONYM_WORD]) {
    for (const match of text.matchAll(pattern)) {
      // All-caps constants (`DEFAULT_DB_ALIAS`) are kept; bare `__init__`-style dunders are too short to matter.
      add(match[0], 'code');
    }
  }
  return found;
}

/**
 * Names that another name in `names` already shows as a whole token: `django/db/models/base.py`
 * shows `base.py`, `/testbed/django/db/models/base.py` shows `django/db/models/base.py`.
 * Listing them again would cost tokens and tell a reader nothing new.
 */
export function coveredNames(names: readonly string[]): Set<string> {
  // Every head (before a slash) and tail (after a slash) of every path: a name is covered when it is one.
  const affixes = new Set<string>();
  for (const name of names) {
    for (let at = name.indexOf('/'); at !== -1; at = name.indexOf('/', at + 1)) {
      affixes.add(name.slice(0, at));
      affixes.add(name.slice(at + 1));
    }
  }
  const covered = new Set<string>();
  if (affixes.size > 0) for (const name of names) if (affixes.has(name)) covered.add(name);
  return covered;
}
