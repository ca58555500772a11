import { existsSync } from 'node:fs';
import { InvalidArgumentError } from '@ollm/core';
import { HISTORY_FILE } from './session-history.js';
import { lastActivityOf, sessionFilesByActivity, type SessionFile } from './session-activity.js';
import { searchHistoryFile, type SessionSearchHit } from './search-history-file.js';
import { searchTerms } from './search-terms.js';
import { resolveInside, validateStorageId } from './storage-id.js';

export type { SessionSearchHit } from './search-history-file.js';
export type { SearchField } from './search-fields.js';
export type { SearchSnippet, SnippetMatch } from './search-snippet.js';

/** How many hits a search returns unless told otherwise. */
export const DEFAULT_SEARCH_LIMIT = 50;

export interface SearchSessionsOptions {
  /** The most hits to return (default `DEFAULT_SEARCH_LIMIT`): the search stops once it has found one more. */
  readonly limit?: number;
  /** Search this session only (an unknown id is an error). */
  readonly session?: string;
  /** The longest snippet, in characters (default `DEFAULT_SNIPPET_LENGTH`, 120). */
  readonly snippetLength?: number;
}

export interface SessionSearchResult {
  /** The terms searched for, each of which every hit holds. */
  readonly terms: readonly string[];
  /** Newest session first; in each session, in the order recorded. */
  readonly hits: readonly SessionSearchHit[];
  /** True when there were more hits than `limit` (the search stopped at the first one beyond it). */
  readonly truncated: boolean;
  /** Sessions read (whole, or up to where the search stopped). */
  readonly sessionsSearched: number;
}

/**
 * Searches the full records of the sessions under `home` (`sessions/<id>/history.jsonl`) for
 * messages and goal states holding every term, case-insensitively: messages' text, reasoning,
 * tool calls (name and arguments) and tool results; goals' descriptions, checkpoints, decisions,
 * artifacts and next steps. A string query is split into words at whitespace; an array gives
 * the terms as they are (a term with spaces is a phrase).
 *
 * Sessions are read newest activity first (ordered from the ends of their files), each streamed
 * in blocks of lines: a line is parsed only when its raw text holds every term, and the search
 * stops at the first hit beyond `limit`. What was recorded redacted is searched, and shown,
 * redacted. Sessions written while the search runs are read as far as they were written.
 */
export function searchSessions(home: string, query: string | readonly string[], options: SearchSessionsOptions = {}): SessionSearchResult {
  const terms = searchTerms(query);
  const limit = options.limit ?? DEFAULT_SEARCH_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new InvalidArgumentError({ argument: 'limit', message: `Invalid search limit ${String(limit)}: use a whole number above 0.` });
  const sessions = options.session !== undefined ? [oneSession(home, options.session)] : sessionFilesByActivity(home);
  const hits: SessionSearchHit[] = [];
  let truncated = false;
  let sessionsSearched = 0;
  const visit = (hit: SessionSearchHit): boolean => {
    if (hits.length === limit) {
      truncated = true;
      return false;
    }
    hits.push(hit);
    return true;
  };
  for (const session of sessions) {
    sessionsSearched += 1;
    if (!searchHistoryFile(session.path, session.sessionId, terms, visit, options.snippetLength)) break;
  }
  return { terms: terms.terms, hits, truncated, sessionsSearched };
}

/** The one session `--session` names, refused as `readSession` refuses it when it is not there. */
function oneSession(home: string, sessionId: string): SessionFile {
  validateStorageId('session', sessionId);
  const path = resolveInside(home, 'sessions', sessionId, HISTORY_FILE);
  if (!existsSync(path))
    throw new InvalidArgumentError({ argument: 'session', message: `No session "${sessionId}" under ${home} (see \`ollm sessions list\`).` });
  return { sessionId, path, lastActivity: lastActivityOf(path) };
}
