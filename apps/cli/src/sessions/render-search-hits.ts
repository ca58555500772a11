import type { SearchSnippet, SessionSearchHit, SessionSearchResult } from '@ollm/runtime';
import type { Colors } from '../output/colors.js';
import { plural } from '../output/plural.js';
import { renderTable } from '../output/render-table.js';
import { shortTime } from './render-sessions.js';

/**
 * `ollm sessions search` for a person: the hits grouped by session (newest first), one line each:
 * message number (as `sessions show` prints it), who and what, when, and the snippet with every
 * term highlighted (bold red, as grep does, when colour is on); then how many, and whether more
 * exist. Snippets come redacted and on one line from the runtime.
 */
export function renderSearchHits(result: SessionSearchResult, colors: Colors, limit: number): string {
  const groups: SessionSearchHit[][] = [];
  for (const hit of result.hits) {
    const group = groups[groups.length - 1];
    if (group && group[0]!.sessionId === hit.sessionId) group.push(hit);
    else groups.push([hit]);
  }
  // One table for every hit, so the columns line up across sessions.
  const rows = result.hits.map((hit) => [
    hit.source === 'message' ? `#${hit.messageIndex + 1}` : '',
    kindOf(hit),
    shortTime(hit.at),
    highlight(hit.snippet, colors),
  ]);
  const lines = renderTable(rows, { indent: '  ', align: ['right'] }).split('\n');
  let taken = 0;
  const blocks = groups.map((hits) => {
    const first = hits[0]!;
    const details = [first.sessionStart ? `started ${shortTime(first.sessionStart)}` : '', first.model ?? ''].filter(Boolean);
    const title = colors.bold(`${first.sessionId}${details.length > 0 ? ` (${details.join(', ')})` : ''}`);
    taken += hits.length;
    return [title, ...lines.slice(taken - hits.length, taken)].join('\n');
  });
  const count = `${plural(result.hits.length, 'hit')} in ${plural(groups.length, 'session')}`;
  const more = result.truncated ? `; more exist: these are the first ${limit} (--limit N shows more, --session ID searches one session)` : '';
  return `${blocks.join('\n\n')}\n\n${count}${more}. Read one in full: ollm sessions show ID`;
}

/** `user`, `assistant tool call`, `tool result`, `goal`, `goal checkpoint`, ... */
export function kindOf(hit: SessionSearchHit): string {
  if (hit.source === 'goal') return hit.field === 'goal' ? 'goal' : `goal ${hit.field === 'next' ? 'next step' : hit.field}`;
  const role = hit.role ?? 'message';
  if (hit.field === 'text') return role;
  const field = hit.field.replace('-', ' ');
  return hit.field === 'tool-result' && role === 'tool' ? field : `${role} ${field}`;
}

/** The snippet with its matches in bold red (nothing added when colour is off). */
export function highlight(snippet: SearchSnippet, colors: Colors): string {
  let text = '';
  let copied = 0;
  for (const match of snippet.matches) {
    text += snippet.text.slice(copied, match.start) + colors.bold(colors.red(snippet.text.slice(match.start, match.start + match.length)));
    copied = match.start + match.length;
  }
  return text + snippet.text.slice(copied);
}

/** The hits as `--json` prints them: every key always there (`null` when it does not apply). */
export function searchResultJson(result: SessionSearchResult): unknown {
  return {
    terms: result.terms,
    hits: result.hits.map((hit) => ({
      sessionId: hit.sessionId,
      sessionStart: hit.sessionStart,
      model: hit.model ?? null,
      source: hit.source,
      messageIndex: hit.messageIndex,
      role: hit.role ?? null,
      field: hit.field,
      at: hit.at,
      snippet: hit.snippet,
    })),
    truncated: result.truncated,
    sessionsSearched: result.sessionsSearched,
  };
}
