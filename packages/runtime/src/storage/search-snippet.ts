import { globalOf } from './search-terms.js';

/** Where a term occurs in a snippet's text (UTF-16 offsets, as `String.prototype.slice` takes). */
export interface SnippetMatch {
  readonly start: number;
  readonly length: number;
}

/** A short piece of matched text, on one line, with where the terms occur in it (to highlight). */
export interface SearchSnippet {
  readonly text: string;
  readonly matches: readonly SnippetMatch[];
}

/** The longest snippet, in characters, before the `…` that mark a cut. */
export const DEFAULT_SNIPPET_LENGTH = 120;
/** How much text before the first match a snippet keeps, at most. */
const CONTEXT_BEFORE = 40;
const ELLIPSIS = '…';

// Whitespace and control characters (a terminal's escape sequences too) become one space.
// eslint-disable-next-line no-control-regex
const NOT_ON_ONE_LINE = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/**
 * The part of `text` around the earliest match of any of `patterns` (see `SearchTerms`): at most
 * `length` characters of it, cut with `…`, on one line (whitespace and control characters
 * collapsed to a space), and every match of every pattern inside it.
 */
export function searchSnippet(text: string, patterns: readonly RegExp[], length = DEFAULT_SNIPPET_LENGTH): SearchSnippet {
  let anchor = 0;
  let anchorLength = 0;
  let found = false;
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match && (!found || match.index < anchor)) [anchor, anchorLength, found] = [match.index, match[0].length, true];
  }
  let start = Math.max(0, anchor - CONTEXT_BEFORE);
  let end = Math.min(text.length, Math.max(start + length, anchor + anchorLength));
  if (end - start < length) start = Math.max(0, end - length);
  // Never split a surrogate pair at either end.
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start += 1;
  if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end -= 1;
  const body = text.slice(start, end).replace(NOT_ON_ONE_LINE, ' ').trim();
  const line = `${start > 0 ? ELLIPSIS : ''}${body}${end < text.length ? ELLIPSIS : ''}`;
  return { text: line, matches: matchesIn(line, patterns) };
}

/** Every match of every pattern in `line`, in order, overlaps merged. */
function matchesIn(line: string, patterns: readonly RegExp[]): SnippetMatch[] {
  const spans: { start: number; end: number }[] = [];
  for (const pattern of patterns) {
    const global = globalOf(pattern);
    for (let match = global.exec(line); match; match = global.exec(line)) {
      if (match[0].length === 0) break;
      spans.push({ start: match.index, end: match.index + match[0].length });
    }
  }
  spans.sort((a, b) => a.start - b.start || b.end - a.end);
  const merged: { start: number; end: number }[] = [];
  for (const span of spans) {
    const last = merged[merged.length - 1];
    if (last && span.start <= last.end) last.end = Math.max(last.end, span.end);
    else merged.push({ ...span });
  }
  return merged.map((span) => ({ start: span.start, length: span.end - span.start }));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
