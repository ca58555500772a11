import type { MessageRole } from '@ollm/core';
import { forEachLineBlock } from './read-line-blocks.js';
import { goalFields, matchFields, messageFields, type FieldMatch, type SearchField } from './search-fields.js';
import type { SearchSnippet } from './search-snippet.js';
import { globalOf, type SearchTerms } from './search-terms.js';

/** One message or goal state of a session's history that holds every term. */
export interface SessionSearchHit {
  readonly sessionId: string;
  /** When the session started (its header); `''` if the file has none. */
  readonly sessionStart: string;
  /** The session's model as recorded up to the hit (header, then metadata entries). */
  readonly model?: string;
  /** A message of the history, or a goal state recorded with `appendGoal`. */
  readonly source: 'message' | 'goal';
  /**
   * A message's index among the session's messages, from 0 (`ollm sessions show` prints it as
   * `#index+1`); for a goal, how many messages were recorded before it.
   */
  readonly messageIndex: number;
  /** The message's role; absent for a goal. */
  readonly role?: MessageRole;
  /** Which text of the message or goal the snippet is from. */
  readonly field: SearchField;
  /** When the entry was recorded. */
  readonly at: string;
  readonly snippet: SearchSnippet;
}

/** Returns false to stop the search (enough hits). */
export type HitVisitor = (hit: SessionSearchHit) => boolean;

const MESSAGE = '{"type":"message"';
const METADATA = '{"type":"metadata"';
const HEADER = '{"type":"session"';

/** What a scan knows of its session so far. */
interface ScanState {
  readonly sessionId: string;
  sessionStart: string;
  model: string | undefined;
  /** Messages before the current line. */
  messages: number;
  /** Goal texts already reported: a goal is recorded whole at every change, each text is reported once. */
  readonly goalTexts: Set<string>;
  /** Takes in the lines of the previous block after its last candidate; called when the next block comes. */
  finishBlock?: () => void;
}

/**
 * Searches one history file front to back, block by block. Only lines whose raw text holds every
 * term's probe (one case-folding regular-expression search over the block finds them) are parsed
 * as JSON; lines before a candidate are only counted (message lines, by the `{"type":"message"`
 * they start with as `SessionHistory` writes them) or read for the model (header, metadata), and
 * the lines after a file's last candidate are not even walked. A line that is not JSON is skipped,
 * and a line cut by a crash is never read. Returns false when `visit` stopped the search.
 */
export function searchHistoryFile(path: string, sessionId: string, terms: SearchTerms, visit: HitVisitor, snippetLength?: number): boolean {
  const state: ScanState = { sessionId, sessionStart: '', model: undefined, messages: 0, goalTexts: new Set() };
  let going = true;
  forEachLineBlock(path, (text) => {
    going = searchBlock(text, state, terms, visit, snippetLength);
    return going;
  });
  return going;
}

function searchBlock(text: string, state: ScanState, terms: SearchTerms, visit: HitVisitor, snippetLength?: number): boolean {
  state.finishBlock?.();
  const lines = new LineWalker(text);
  /** Takes in every line starting before `to` not taken yet: counts messages, reads the model. */
  const advance = (to: number) => {
    state.messages += lines.walk(to, (start) => applyEntry(parseLine(text.slice(start, lineEnd(text, start))), state));
  };
  const candidates = candidateLines(text, terms);
  for (let line = candidates.next(); line !== undefined; line = candidates.next()) {
    advance(line.start);
    const match = matchLine(text.slice(line.start, line.end), state, terms, snippetLength);
    if (match && !visit(match)) return false;
    advance(line.end + 1);
  }
  // The rest of the block is counted only if another block follows: a file's last block (most
  // sessions are one block) is never walked past its last candidate.
  state.finishBlock = () => advance(text.length + 1);
  return true;
}

/** The hit a candidate line makes, if its entry really holds every term (and is not a goal text already reported). */
function matchLine(line: string, state: ScanState, terms: SearchTerms, snippetLength?: number): SessionSearchHit | undefined {
  const entry = parseLine(line);
  if (!entry) return undefined;
  applyEntry(entry, state);
  const at = typeof entry['at'] === 'string' ? entry['at'] : '';
  if (entry['type'] === 'message') {
    const match = matchFields(messageFields(entry['message']), terms, snippetLength);
    const message = entry['message'] as { role?: unknown } | undefined;
    const role = typeof message?.role === 'string' ? (message.role as MessageRole) : undefined;
    return match && hitOf(state, match, 'message', at, role);
  }
  if (entry['type'] === 'goal') {
    const match = matchFields(goalFields(entry['goal']), terms, snippetLength);
    if (!match) return undefined;
    const key = `${match.field}\n${match.text}`;
    if (state.goalTexts.has(key)) return undefined;
    state.goalTexts.add(key);
    return hitOf(state, match, 'goal', at);
  }
  return undefined;
}

function hitOf(state: ScanState, match: FieldMatch, source: 'message' | 'goal', at: string, role?: MessageRole): SessionSearchHit {
  return {
    sessionId: state.sessionId,
    sessionStart: state.sessionStart,
    ...(state.model !== undefined ? { model: state.model } : {}),
    source,
    messageIndex: state.messages,
    ...(role !== undefined ? { role } : {}),
    field: match.field,
    at,
    snippet: match.snippet,
  };
}

/** The header's start and model, a metadata entry's model. */
function applyEntry(entry: Record<string, unknown> | undefined, state: ScanState): void {
  if (entry?.['type'] === 'session') {
    if (typeof entry['startTime'] === 'string') state.sessionStart = entry['startTime'];
    if (typeof entry['model'] === 'string') state.model = entry['model'];
  } else if (entry?.['type'] === 'metadata' && typeof entry['model'] === 'string') {
    state.model = entry['model'];
  }
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function lineEnd(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end < 0 ? text.length : end;
}

interface LineSpan {
  readonly start: number;
  /** The newline ending it, or the block's length. */
  readonly end: number;
}

/**
 * The lines of a block that may hold every term, in order: those whose raw text holds every probe
 * (in any case). One global search for the longest probe over the block skips the other lines
 * (no copy of the block: regular expressions fold case as they go).
 */
function candidateLines(text: string, terms: SearchTerms): { next(): LineSpan | undefined } {
  const probes = terms.probes.filter((probe): probe is RegExp => probe !== undefined).sort((a, b) => b.source.length - a.source.length);
  const [first, ...others] = probes;
  const main = first && globalOf(first);
  let position = 0;
  return {
    next() {
      while (position <= text.length) {
        let found = position;
        if (main) {
          main.lastIndex = position;
          const match = main.exec(text);
          if (!match) break;
          found = match.index;
        }
        const start = found === 0 ? 0 : text.lastIndexOf('\n', found - 1) + 1;
        const end = lineEnd(text, found);
        position = end + 1;
        if (others.length === 0) return { start, end };
        const line = text.slice(start, end);
        if (others.every((probe) => probe.test(line))) return { start, end };
      }
      position = text.length + 1;
      return undefined;
    },
  };
}

/**
 * Walks a block's lines once, in order, looking only at how each starts: counts the message lines
 * and hands over the header and metadata lines (the only ones that change the model). One
 * single-character `indexOf` per line.
 */
class LineWalker {
  /** The start of the first line not taken yet. */
  private next = 0;

  constructor(private readonly text: string) {}

  /** Takes in the lines starting before `to`; returns how many are messages. */
  walk(to: number, onModelLine: (start: number) => void): number {
    const text = this.text;
    let count = 0;
    let start = this.next;
    while (start < to && start <= text.length) {
      if (text.startsWith(MESSAGE, start)) count += 1;
      else if (text.startsWith(METADATA, start) || text.startsWith(HEADER, start)) onModelLine(start);
      const newline = text.indexOf('\n', start);
      start = newline < 0 ? text.length + 1 : newline + 1;
    }
    this.next = start;
    return count;
  }
}
