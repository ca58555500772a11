import type { Message } from '@ollm/core';
import { partText } from '@ollm/core';
import type { CodeView } from '../views/code-view.js';
import { pathsMatch } from './path-match.js';

/** Lines of one file that a message cites or edits, by number. */
interface NumberedReference {
  readonly path: string;
  readonly messageIndex: number;
  readonly from: number;
  readonly to: number;
}

/** Text lines shorter than this are too common (`else:`, `return x`) to mark a line as edited. */
const MIN_QUOTED_LENGTH = 12;
/** Rows kept either side of a cited line, so the citation keeps its statement. */
const CITATION_CONTEXT = 0;

const SOURCE_PATH = String.raw`((?:[\w.-]+/)*[\w.-]+\.(?:py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|c|h|cc|cpp|hpp|rb|php|cs|sh|kt|swift|scala))`;
const GREP_HIT = new RegExp(String.raw`(?:^|[\s'"])(/?${SOURCE_PATH}):(\d+)[:-]`, 'gm');
const TRACEBACK = /File "([^"]+)", line (\d+)/g;
const LINE_MENTION = /\blines? (\d+)(?:\s*(?:-|–|to|and)\s*(\d+))?/gi;
const MENTIONED_PATH = new RegExp(SOURCE_PATH, 'g');
const DIFF_FILE = /^--- (?:a\/)?(\S+)/;
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;
const SED_IN_PLACE = /\bsed\s+(?:-\w+\s+)*-i\S*\s+(?:-e\s+)?['"]?(\d+)(?:,(\d+))?[a-z]/;

/** A line as quoted in an edit: without diff markers, indentation or trailing spaces. */
function normaliseQuoted(line: string): string {
  return line.replace(/^[+-](?=[\s\w])/, '').trim();
}

/**
 * What later (or other) messages say about lines of files: edits (`sed -i`, str_replace,
 * heredoc writes, diffs) and citations (grep hits, tracebacks, "line N"). A folded view keeps
 * those lines exactly.
 */
export class LineReferences {
  private readonly numbered: NumberedReference[] = [];
  /** Normalised line text -> last message index that quoted it in an edit, diff or discussion. */
  private readonly quoted = new Map<string, number>();

  constructor(messages: readonly Message[], views: ReadonlyMap<string, CodeView>) {
    for (const [messageIndex, message] of messages.entries()) {
      for (const [partIndex, part] of message.parts.entries()) {
        const text = partText(part);
        const isView = views.has(`${messageIndex}:${partIndex}`);
        if (!isView) this.collectNumbered(text, messageIndex);
        // Quotes come from what the assistant wrote and from diffs, never from views themselves.
        const quoting = part.type === 'tool-call' || (message.role === 'assistant' && part.type === 'text') || (!isView && /^@@ -\d+/m.test(text));
        if (quoting) this.collectQuoted(part.type === 'tool-call' ? toolInputText(part.input, part.rawInput) : text, messageIndex);
      }
    }
  }

  private addNumbered(path: string, messageIndex: number, from: number, to = from): void {
    this.numbered.push({ path, messageIndex, from: Math.min(from, to), to: Math.max(from, to) });
  }

  private collectNumbered(text: string, messageIndex: number): void {
    for (const match of text.matchAll(GREP_HIT)) this.addNumbered(match[1]!, messageIndex, Number(match[3]));
    for (const match of text.matchAll(TRACEBACK)) this.addNumbered(match[1]!, messageIndex, Number(match[2]));
    const sedEdit = SED_IN_PLACE.exec(text);
    // The paths a text mentions matter only to an in-place sed or a "line N": most outputs have
    // neither, and scanning every output for paths is the costliest pattern here.
    if (sedEdit || text.search(LINE_MENTION) !== -1) {
      const paths = [...new Set([...text.matchAll(MENTIONED_PATH)].map((match) => match[1]!))];
      if (sedEdit && paths.length === 1) this.addNumbered(paths[0]!, messageIndex, Number(sedEdit[1]), Number(sedEdit[2] ?? sedEdit[1]));
      if (paths.length === 1) {
        for (const match of text.matchAll(LINE_MENTION)) this.addNumbered(paths[0]!, messageIndex, Number(match[1]), Number(match[2] ?? match[1]));
      }
    }
    this.collectHunks(text, messageIndex);
  }

  private collectHunks(text: string, messageIndex: number): void {
    if (!text.includes('@@ -')) return;
    let path: string | undefined;
    for (const line of text.split('\n')) {
      const file = DIFF_FILE.exec(line);
      if (file) path = file[1];
      const hunk = HUNK.exec(line);
      if (hunk && path) {
        const start = Number(hunk[1]);
        this.addNumbered(path, messageIndex, start, start + Math.max(Number(hunk[2] ?? 1), 1) - 1);
      }
    }
  }

  private collectQuoted(text: string, messageIndex: number): void {
    for (const line of text.split('\n')) {
      const normalised = normaliseQuoted(line);
      if (normalised.length >= MIN_QUOTED_LENGTH) this.quoted.set(normalised, messageIndex);
    }
  }

  /**
   * Row indexes of `view` that other messages cite by number or, except for scripts, that later
   * messages quote in edits.
   */
  keptRows(view: CodeView): Set<number> {
    const kept = new Set<number>();
    const references = view.path
      ? this.numbered.filter((reference) => reference.messageIndex !== view.messageIndex && pathsMatch(reference.path, view.path!))
      : [];
    for (const [row, line] of view.lines.entries()) {
      // A script's lines reappear in the agent's next script; only citations keep them.
      const quotedAt = view.kind === 'script' ? undefined : this.quoted.get(line.text.trim());
      if (quotedAt !== undefined && quotedAt > view.messageIndex) kept.add(row);
      if (line.number === undefined) continue;
      const number = line.number;
      if (references.some((reference) => number >= reference.from - CITATION_CONTEXT && number <= reference.to + CITATION_CONTEXT)) kept.add(row);
    }
    return kept;
  }
}

/** The text of a tool call's arguments as an agent wrote them (commands, old/new strings). */
function toolInputText(input: unknown, rawInput: string | undefined): string {
  if (typeof input === 'string') return input;
  if (input && typeof input === 'object') {
    return Object.values(input as Record<string, unknown>)
      .filter((value): value is string => typeof value === 'string')
      .join('\n');
  }
  return rawInput ?? '';
}
