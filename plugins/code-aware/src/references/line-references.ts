import { partText, type Message } from '@ollm/core';
import type { CodeView } from '../views/code-view.js';
import { CodeAwareCache, stringBytes } from '../cache/code-aware-cache.js';
import { normalisedFileName, normalisedPathsMatch, normalisePath } from './path-match.js';

/** Lines of one file that a text cites or edits, by number. */
export interface LineMention {
  readonly path: string;
  /** `path` as `normalisePath` spells it, and its file name: what matching compares. */
  readonly normalisedPath: string;
  readonly fileName: string;
  readonly from: number;
  readonly to: number;
}

/** What a text says about lines of files by number, and whether it holds a diff hunk. */
export interface TextMentions {
  readonly mentions: readonly LineMention[];
  readonly hunks: boolean;
}

interface NumberedReference {
  readonly mention: LineMention;
  readonly messageIndex: number;
}

/** Text lines shorter than this are too common (`else:`, `return x`) to mark a line as edited. */
const MIN_QUOTED_LENGTH = 12;
/** Rows kept either side of a cited line, so the citation keeps its statement. */
const CITATION_CONTEXT = 0;
/** Widest span of line numbers whose citations are counted in an array. */
const MAX_COUNTED_SPAN = 1_000_000;

const SOURCE_EXTENSIONS = 'py|pyi|ts|tsx|js|jsx|mjs|cjs|go|rs|java|c|h|cc|cpp|hpp|rb|php|cs|sh|kt|swift|scala';
/** A source file's path or name, captured (`django/db/models/base.py`). */
export const SOURCE_PATH = String.raw`((?:[\w.-]+/)*[\w.-]+\.(?:${SOURCE_EXTENSIONS}))`;
const GREP_HIT = new RegExp(String.raw`(?:^|[\s'"])(/?${SOURCE_PATH}):(\d+)[:-]`, 'gm');
/** What every grep hit holds (`.py:12`): a text without it has none, and this is read far faster. */
const GREP_HIT_MARK = new RegExp(String.raw`\.(?:${SOURCE_EXTENSIONS}):\d`);
const TRACEBACK = /File "([^"]+)", line (\d+)/g;
const LINE_MENTION = /\blines? (\d+)(?:\s*(?:-|–|to|and)\s*(\d+))?/gi;
/**
 * SOURCE_PATH where it can start: a match never starts after a path character (one there would
 * start a character earlier), so the lookbehind finds the same matches without trying the pattern
 * at every character of every word, about three times faster.
 */
const MENTIONED_PATH = new RegExp(String.raw`(?<![\w.-])${SOURCE_PATH}`, 'g');
const DIFF_FILE = /^--- (?:a\/)?(\S+)/;
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+\d+(?:,\d+)? @@/;
const SED_IN_PLACE = /\bsed\s+(?:-\w+\s+)*-i\S*\s+(?:-e\s+)?['"]?(\d+)(?:,(\d+))?[a-z]/;

/** A line as quoted in an edit: without diff markers, indentation or trailing spaces. */
function normaliseQuoted(line: string): string {
  return line.replace(/^[+-](?=[\s\w])/, '').trim();
}

/** The source paths a text mentions, each once, in order. */
export function mentionedPaths(text: string): string[] {
  return [...new Set([...text.matchAll(MENTIONED_PATH)].map((match) => match[1]!))];
}

/** Lines a text cites by number: grep hits, traceback frames, in-place `sed`, "line N", diff hunks. */
export function findLineMentions(text: string): TextMentions {
  const mentions: LineMention[] = [];
  const add = (path: string, from: number, to = from): void => {
    const normalisedPath = normalisePath(path);
    mentions.push({ path, normalisedPath, fileName: normalisedFileName(normalisedPath), from: Math.min(from, to), to: Math.max(from, to) });
  };
  if (GREP_HIT_MARK.test(text)) for (const match of text.matchAll(GREP_HIT)) add(match[1]!, Number(match[3]));
  for (const match of text.matchAll(TRACEBACK)) add(match[1]!, Number(match[2]));
  const sedEdit = SED_IN_PLACE.exec(text);
  // The paths a text mentions matter only to an in-place sed or a "line N": most outputs have
  // neither, and scanning every output for paths is the costliest pattern here.
  if (sedEdit || text.search(LINE_MENTION) !== -1) {
    const paths = mentionedPaths(text);
    if (sedEdit && paths.length === 1) add(paths[0]!, Number(sedEdit[1]), Number(sedEdit[2] ?? sedEdit[1]));
    if (paths.length === 1) {
      for (const match of text.matchAll(LINE_MENTION)) add(paths[0]!, Number(match[1]), Number(match[2] ?? match[1]));
    }
  }
  if (text.includes('@@ -')) {
    let path: string | undefined;
    for (const line of text.split('\n')) {
      const file = DIFF_FILE.exec(line);
      if (file) path = file[1];
      const hunk = HUNK.exec(line);
      if (hunk && path) {
        const start = Number(hunk[1]);
        add(path, start, start + Math.max(Number(hunk[2] ?? 1), 1) - 1);
      }
    }
  }
  return { mentions, hunks: /^@@ -\d+/m.test(text) };
}

/** The lines of an edit or discussion that may quote code: normalised, long enough to be distinctive. */
export function quotedLines(text: string): string[] {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const normalised = normaliseQuoted(line);
    if (normalised.length >= MIN_QUOTED_LENGTH) lines.push(normalised);
  }
  return lines;
}

/** A view's line texts without surrounding spaces, as quotes are compared. */
export function trimmedLinesOf(view: CodeView): string[] {
  return view.lines.map((line) => line.text.trim());
}

/** Estimated bytes of lines held by a cache. */
export function linesBytes(lines: readonly string[]): number {
  return 32 + lines.reduce((sum, line) => sum + 8 + stringBytes(line), 0);
}

function mentionsBytes(found: TextMentions): number {
  return 64 + found.mentions.reduce((sum, mention) => sum + 64 + stringBytes(mention.path) + stringBytes(mention.normalisedPath), 0);
}

/**
 * What later (or other) messages say about lines of files: edits (`sed -i`, str_replace,
 * heredoc writes, diffs) and citations (grep hits, tracebacks, "line N"). A folded view keeps
 * those lines exactly. What each text says is remembered in `cache`; the conversation is
 * indexed on the first question.
 */
export class LineReferences {
  /** Numbered references by the file name of their path (paths that match share it). */
  private numbered: Map<string, NumberedReference[]> | undefined;
  /** Normalised line text -> last message index that quoted it in an edit, diff or discussion. */
  private readonly quoted = new Map<string, number>();
  /** `keptRows` answers, by view. */
  private readonly rows = new Map<CodeView, { readonly trimmedLines: readonly string[]; readonly rows: ReadonlySet<number> }>();

  constructor(
    private readonly messages: readonly Message[],
    private readonly views: ReadonlyMap<string, CodeView>,
    private readonly cache: CodeAwareCache,
  ) {}

  private index(): Map<string, NumberedReference[]> {
    if (this.numbered) return this.numbered;
    const numbered = new Map<string, NumberedReference[]>();
    for (const [messageIndex, message] of this.messages.entries()) {
      for (const [partIndex, part] of message.parts.entries()) {
        const isView = this.views.has(`${messageIndex}:${partIndex}`);
        let hunks = false;
        if (!isView) {
          const text = part.type === 'tool-call' ? this.cache.textOf(part, 'part-text', () => partText(part)) : partText(part);
          const found = this.cache.derived(text, 'line-mentions', () => findLineMentions(text), mentionsBytes);
          hunks = found.hunks;
          for (const mention of found.mentions) {
            const group = numbered.get(mention.fileName);
            const reference = { mention, messageIndex };
            if (group) group.push(reference);
            else numbered.set(mention.fileName, [reference]);
          }
        }
        // Quotes come from what the assistant wrote and from diffs, never from views themselves.
        const quoting = part.type === 'tool-call' || (message.role === 'assistant' && part.type === 'text') || hunks;
        if (!quoting) continue;
        const text = part.type === 'tool-call' ? this.cache.textOf(part, 'input-text', () => toolInputText(part.input, part.rawInput)) : partText(part);
        for (const line of this.cache.derived(text, 'quoted-lines', () => quotedLines(text), linesBytes)) this.quoted.set(line, messageIndex);
      }
    }
    this.numbered = numbered;
    return numbered;
  }

  /**
   * Row indexes of `view` that other messages cite by number or, except for scripts, that later
   * messages quote in edits. `trimmedLines` are the view's line texts trimmed (`trimmedLinesOf`).
   */
  keptRows(view: CodeView, trimmedLines: readonly string[] = trimmedLinesOf(view)): ReadonlySet<number> {
    // A view (the same object: views are remembered by content) asks again in every compaction of an unchanged conversation.
    const known = this.rows.get(view);
    if (known !== undefined && known.trimmedLines === trimmedLines) return known.rows;
    const rows = this.findKeptRows(view, trimmedLines);
    this.rows.set(view, { trimmedLines, rows });
    return rows;
  }

  private findKeptRows(view: CodeView, trimmedLines: readonly string[]): Set<number> {
    const numbered = this.index();
    const kept = new Set<number>();
    const path = view.path === undefined ? undefined : normalisePath(view.path);
    const references =
      path === undefined
        ? []
        : (numbered.get(normalisedFileName(path)) ?? []).flatMap((reference) =>
            reference.messageIndex !== view.messageIndex && normalisedPathsMatch(reference.mention.normalisedPath, path) ? [reference.mention] : [],
          );
    const cited = citedNumbers(view, references);
    for (const [row, line] of view.lines.entries()) {
      // A script's lines reappear in the agent's next script; only citations keep them.
      const quotedAt = view.kind === 'script' ? undefined : this.quoted.get(trimmedLines[row]!);
      if (quotedAt !== undefined && quotedAt > view.messageIndex) kept.add(row);
      if (line.number !== undefined && cited?.(line.number)) kept.add(row);
    }
    return kept;
  }
}

/**
 * Whether a line number of `view` falls in any of `references` (with `CITATION_CONTEXT`): the
 * ranges are clipped to the numbers the view shows and counted into one array, so the cost is
 * the references plus the view's span, not their product. Undefined when nothing is cited.
 */
function citedNumbers(view: CodeView, references: readonly LineMention[]): ((number: number) => boolean) | undefined {
  if (references.length === 0) return undefined;
  let lowest = Infinity;
  let highest = -Infinity;
  for (const line of view.lines) {
    if (line.number === undefined) continue;
    if (line.number < lowest) lowest = line.number;
    if (line.number > highest) highest = line.number;
  }
  if (lowest > highest) return undefined;
  const covers = (number: number): boolean =>
    references.some((reference) => number >= reference.from - CITATION_CONTEXT && number <= reference.to + CITATION_CONTEXT);
  // Line numbers far apart (a grep view of lines 5 and 900,000): no array that long.
  if (highest - lowest > MAX_COUNTED_SPAN) return covers;
  // starts[i] - ends[i] summed so far: how many references cover lowest + i.
  const depth = new Int32Array(highest - lowest + 2);
  for (const reference of references) {
    const from = Math.max(reference.from - CITATION_CONTEXT, lowest);
    const to = Math.min(reference.to + CITATION_CONTEXT, highest);
    if (from > to) continue;
    depth[from - lowest]!++;
    depth[to - lowest + 1]!--;
  }
  for (let index = 1; index < depth.length; index++) depth[index]! += depth[index - 1]!;
  return (number) => depth[number - lowest]! > 0;
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
