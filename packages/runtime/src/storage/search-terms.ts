import { InvalidArgumentError } from '@ollm/core';

/**
 * What `searchSessions` looks for: every term must occur, in any case, in one message or one goal
 * state for it to be a hit. "Any case" is Unicode simple case folding (a regular expression's
 * `iu` flags): `config` finds `Config` and `CONFIG`, `straße` finds `STRAßE`.
 */
export interface SearchTerms {
  /** The terms as given (trimmed), for reports. */
  readonly terms: readonly string[];
  /** One per term: the term, in any case (not global: `test`, `exec` and `search` keep no state). */
  readonly patterns: readonly RegExp[];
  /**
   * One per term: a piece of it that any history line holding the term contains as it is (in any
   * case), so lines without it are skipped unparsed: the longest run of the term without
   * whitespace or a character JSON escapes (`"`, `\`, control characters), since a tool call's
   * arguments sit in the line as JSON, a text part as a JSON string, and a tool call's name and
   * arguments apart. Undefined when the term is all such characters (then any line may hold it).
   */
  readonly probes: readonly (RegExp | undefined)[];
}

/** Where a probe stops: whitespace, and characters `JSON.stringify` may write as an escape. */
// eslint-disable-next-line no-control-regex
const PROBE_BREAK = /[\s"\\\u0000-\u001f\u007f-\u009f]/u;

/**
 * The terms of a query: a string is split at whitespace into words; an array gives the terms as
 * they are (a term with a space in it is matched as that phrase). No term at all is an error.
 */
export function searchTerms(query: string | readonly string[]): SearchTerms {
  const given = typeof query === 'string' ? query.split(/\s+/) : query;
  const terms = given.map((term) => term.trim()).filter((term) => term.length > 0);
  if (terms.length === 0) throw new InvalidArgumentError({ argument: 'query', message: 'Nothing to search for: give some text (ollm sessions search TEXT).' });
  return {
    terms,
    patterns: terms.map((term) => anyCase(term)),
    probes: terms.map((term) => {
      const probe = term.split(PROBE_BREAK).reduce((longest, piece) => (piece.length > longest.length ? piece : longest), '');
      return probe.length > 0 ? anyCase(probe) : undefined;
    }),
  };
}

/** A regular expression finding `text` literally, in any case. */
export function anyCase(text: string, flags = 'iu'): RegExp {
  return new RegExp(text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), flags);
}

/** The same expression, global (for `exec` from a `lastIndex`). */
export function globalOf(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, `${pattern.flags}g`);
}
