import { containsProbe } from '../retention.js';

/** `path`: a file path; `snake`/`camel`: a code name; `error`: an exception type name. */
export type IdentifierKind = 'path' | 'snake' | 'camel' | 'error';

export interface Identifier {
  readonly kind: IdentifierKind;
  readonly text: string;
}

export const IDENTIFIER_KINDS: readonly IdentifierKind[] = ['path', 'snake', 'camel', 'error'];

// Extensions a path ends with. A bare file name (no `/`) needs one of BARE_NAME_EXTENSIONS: not
// one-letter ones (`.c`, `.h`) nor words that are also attribute names in Python (`response.json`,
// `mock.patch`, `self.log`), which with a `/` are paths all the same.
const EXTENSIONS = new Set([
  'py',
  'pyi',
  'pyx',
  'txt',
  'json',
  'yml',
  'yaml',
  'toml',
  'cfg',
  'ini',
  'rst',
  'md',
  'html',
  'htm',
  'js',
  'css',
  'sh',
  'sql',
  'po',
  'xml',
  'csv',
  'diff',
  'patch',
  'c',
  'h',
  'log',
]);
const BARE_NAME_EXTENSIONS = new Set(['py', 'pyi', 'pyx', 'txt', 'yml', 'yaml', 'toml', 'cfg', 'ini', 'rst', 'html', 'htm', 'css', 'sh', 'csv']);

// A run of path characters, not starting inside a word.
const PATH_RUN = /(?<![\w.\/-])[\w.\/-]+/g;
// Not after `%` either: `'get_%s_display'` is a format string, not the name `s_display`.
const WORD = /(?<![A-Za-z0-9_%])[A-Za-z_][A-Za-z0-9_]*/g;
const MAXIMUM_LENGTH = 120;

function hasExtension(name: string, extensions: ReadonlySet<string>): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && /[A-Za-z]/.test(name.slice(0, dot)) && extensions.has(name.slice(dot + 1));
}

/**
 * A path as it would be written again: without a trailing `.`/`/`, a leading `./`, or the
 * `a/`/`b/` of a git diff header. Undefined when the run is not a path: a path has a `/` and
 * either a known extension, an absolute or `../` start, or three segments; or it is a bare file
 * name with an extension of BARE_NAME_EXTENSIONS. `and/or`, `django.db.models` and URLs (`//`) are not paths.
 */
export function pathOf(run: string): string | undefined {
  let path = run.replace(/[./]+$/, '');
  if (path.includes('//')) return undefined;
  path = path.replace(/^\.\//, '');
  const absolute = path.startsWith('/') || path.startsWith('../');
  const segments = path.split('/').filter((segment) => segment.length > 0);
  const last = segments[segments.length - 1] ?? '';
  if (segments.length === 1) return !absolute && !path.includes('/') && hasExtension(last, BARE_NAME_EXTENSIONS) ? path : undefined;
  if (!segments.every((segment) => /[A-Za-z_]/.test(segment) || segment === '..')) return undefined;
  if (!(hasExtension(last, EXTENSIONS) || absolute || segments.length >= 3)) return undefined;
  if (/^[ab]\/[^/]/.test(path) && segments.length >= 2) path = path.slice(2);
  return path;
}

/** The kind of a code word, or undefined for a plain word (`Field`, `value`, `TODO`). */
export function wordKind(word: string): Exclude<IdentifierKind, 'path'> | undefined {
  if (word.length < 3 || !/[A-Za-z]/.test(word)) return undefined;
  if (/^[A-Z][A-Za-z0-9]*(?:Error|Exception|Warning)$/.test(word)) return 'error';
  // snake_case, SCREAMING_SNAKE, _private and __dunder__ names.
  if (word.includes('_')) return /[A-Za-z0-9]_+[A-Za-z0-9]/.test(word) || /^_+[A-Za-z][A-Za-z0-9]+_*$/.test(word) ? 'snake' : undefined;
  // camelCase, PascalCase with a second hump (QuerySet), and acronyms before a word (URLField).
  if (/[a-z][A-Z]/.test(word) || /[A-Z]{2,}[a-z]{2,}/.test(word)) return 'camel';
  return undefined;
}

/**
 * The file paths, code names (snake_case, camelCase) and error type names of `text`, each once,
 * in order of first appearance. Words inside a path (`__init__` of `fields/__init__.py`) belong
 * to the path and are not read again as code names.
 */
export function extractIdentifiers(text: string): Identifier[] {
  const found = new Map<string, Identifier>();
  const add = (kind: IdentifierKind, identifier: string) => {
    if (identifier.length <= MAXIMUM_LENGTH && !found.has(identifier)) found.set(identifier, { kind, text: identifier });
  };
  const ordered: { at: number; kind: IdentifierKind; text: string }[] = [];
  let rest = text;
  for (const match of text.matchAll(PATH_RUN)) {
    const path = pathOf(match[0]);
    if (path === undefined) continue;
    ordered.push({ at: match.index, kind: 'path', text: path });
    rest = rest.slice(0, match.index) + ' '.repeat(match[0].length) + rest.slice(match.index + match[0].length);
  }
  for (const match of rest.matchAll(WORD)) {
    const kind = wordKind(match[0]);
    if (kind) ordered.push({ at: match.index, kind, text: match[0] });
  }
  ordered.sort((a, b) => a.at - b.at);
  for (const entry of ordered) add(entry.kind, entry.text);
  return [...found.values()];
}

/** True when `text` holds `identifier` as a whole token (`get_foo` is not in `get_foo_bar`; `db/base.py` is in `/testbed/db/base.py`). */
export function holdsIdentifier(text: string, identifier: string): boolean {
  return containsProbe(text, identifier);
}

/**
 * `text` with its identifiers taken out: every path, and every code name or error type name
 * (what extractIdentifiers reads), each replaced by a space. What is left is the line's other
 * content (`def`, operators, numbers, plain words), which tells a fact line from a bare listing
 * of names (`/testbed/django/db/models/base.py`).
 */
export function withoutIdentifiers(text: string): string {
  const pathless = text.replace(PATH_RUN, (run) => (pathOf(run) === undefined ? run : ' '));
  return pathless.replace(WORD, (word) => (wordKind(word) === undefined ? word : ' '));
}
