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

/** Paths made only of dots and slashes, URLs' `//` and version-like `1.2/3` are not file paths. */
function isPathLike(text: string): boolean {
  if (!/[A-Za-z]/.test(text) || text.includes('//')) return false;
  return text.split('/').filter((segment) => segment.length > 0).length >= 2;
}

// What a run must hold for a pattern to match in it (see `extractIdentifiers`): most words hold none.
const HAS_SLASH = 1;
const HAS_DOT = 2;
const HAS_UPPER = 4;
const HAS_QUOTE = 8;
const HAS_UNDERSCORE = 16;

/** Per character code below 128: 0 outside a run, else 32 plus the flags it sets. */
const RUN_CHARACTER = new Uint8Array(128);
const IN_RUN = 32;
for (const character of 'abcdefghijklmnopqrstuvwxyz0123456789-\\') RUN_CHARACTER[character.charCodeAt(0)] = IN_RUN;
for (const character of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') RUN_CHARACTER[character.charCodeAt(0)] = IN_RUN | HAS_UPPER;
RUN_CHARACTER['/'.charCodeAt(0)] = IN_RUN | HAS_SLASH;
RUN_CHARACTER['.'.charCodeAt(0)] = IN_RUN | HAS_DOT;
RUN_CHARACTER['"'.charCodeAt(0)] = IN_RUN | HAS_QUOTE;
RUN_CHARACTER['_'.charCodeAt(0)] = IN_RUN | HAS_UNDERSCORE;

export interface IdentifierPattern {
  /** Global: matched with `exec` from `lastIndex` 0. */
  readonly pattern: RegExp;
  readonly kind: IdentifierKind;
  /** The name a match gives, if any (all-caps constants such as `DEFAULT_DB_ALIAS` are names too). */
  readonly name: (match: RegExpExecArray) => string | undefined;
  /** The flags a run must hold for the pattern to match in it. */
  readonly needs: number;
}

const whole = (match: RegExpExecArray): string => match[0];

/** The patterns in the order their names are added: the first kind found for a name is kept. */
export const IDENTIFIER_PATTERNS: readonly IdentifierPattern[] = [
  {
    pattern: PATH,
    kind: 'path',
    name: (match) => {
      const path = match[0].replace(/[.:]+$/, '');
      return isPathLike(path) ? path : undefined;
    },
    needs: HAS_SLASH,
  },
  { pattern: FILE_NAME, kind: 'path', name: whole, needs: HAS_DOT },
  { pattern: ERROR_NAME, kind: 'error', name: whole, needs: HAS_UPPER },
  { pattern: QUOTED_ID, kind: 'id', name: (match) => (/[A-Z]/.test(match[1]!) ? match[1] : undefined), needs: HAS_QUOTE },
  { pattern: SNAKE, kind: 'code', name: whole, needs: HAS_UNDERSCORE },
  { pattern: UNDERSCORED, kind: 'code', name: whole, needs: HAS_UNDERSCORE },
  { pattern: CAMEL, kind: 'code', name: whole, needs: HAS_UPPER },
  { pattern: PASCAL, kind: 'code', name: whole, needs: HAS_UPPER },
  { pattern: ACRONYM_WORD, kind: 'code', name: whole, needs: HAS_UPPER },
];

/** Shorter than this, a name carries too little to be worth a token. */
export const MIN_IDENTIFIER_LENGTH = 3;

/**
 * Every identifier in `text`, each once, with its kind: the paths in order of appearance, then
 * the file names, the error names, the quoted ids and the code names (each pattern's in order).
 *
 * Read in one pass: every match of every pattern lies inside one run of the characters
 * `[A-Za-z0-9_.\-/\\"]`, and what the patterns look at around a match (`\b`, the lookbehinds,
 * the lookahead) reads a character outside a run as it reads the text's edge. So each pattern
 * finds in the runs, one after another, what it finds in the whole text; and a run is read only
 * by the patterns whose characters it holds (a run of lower-case letters and digits matches none).
 */
export function extractIdentifiers(text: string): Map<string, IdentifierKind> {
  const matches: string[][] = IDENTIFIER_PATTERNS.map(() => []);
  const length = text.length;
  let start = -1;
  let flags = 0;
  for (let position = 0; position <= length; position++) {
    const code = position < length ? text.charCodeAt(position) : 0;
    const character = code < 128 ? RUN_CHARACTER[code]! : 0;
    if (character !== 0) {
      if (start === -1) start = position;
      flags |= character;
      continue;
    }
    if (start === -1) continue;
    if (position - start >= MIN_IDENTIFIER_LENGTH && (flags & ~IN_RUN) !== 0) collectRun(text.slice(start, position), flags, matches);
    start = -1;
    flags = 0;
  }
  const found = new Map<string, IdentifierKind>();
  for (let index = 0; index < IDENTIFIER_PATTERNS.length; index++) {
    const { kind } = IDENTIFIER_PATTERNS[index]!;
    for (const name of matches[index]!) if (name.length >= MIN_IDENTIFIER_LENGTH && !found.has(name)) found.set(name, kind);
  }
  return found;
}

/** What each pattern finds in one run, added to its list. */
function collectRun(run: string, flags: number, matches: string[][]): void {
  for (let index = 0; index < IDENTIFIER_PATTERNS.length; index++) {
    const { pattern, name, needs } = IDENTIFIER_PATTERNS[index]!;
    if ((flags & needs) !== needs) continue;
    const into = matches[index]!;
    pattern.lastIndex = 0;
    for (let match = pattern.exec(run); match !== null; match = pattern.exec(run)) {
      const found = name(match);
      if (found !== undefined) into.push(found);
    }
  }
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
