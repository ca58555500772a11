import type { ToolCallPart } from '@ollm/core';
import { guessLanguage } from '../grammar/guess-language.js';
import { languageForPath } from '../grammar/language-id.js';
import type { CodeLine, CodeView } from './code-view.js';
import { plainLines, splitNumberedLines } from './line-number-prefix.js';
import { parseReadCommand, resolveViewPath, type ReadCommand } from './read-command.js';

/** Views shorter than this are not worth a placeholder. */
export const MIN_VIEW_ROWS = 8;

const EDITOR_HEADER = /^Here's the result of running `cat -n` on (?:a snippet of )?(\S+?):?\n/;
const PATH_KEYS = ['path', 'file_path', 'filePath', 'file', 'filename', 'target_file'];

function inputRecord(call: ToolCallPart): Record<string, unknown> {
  if (call.input && typeof call.input === 'object') return call.input as Record<string, unknown>;
  if (typeof call.input === 'string') {
    try {
      const parsed: unknown = JSON.parse(call.input);
      if (parsed && typeof parsed === 'object') return parsed as Record<string, unknown>;
    } catch {
      return { command: call.input };
    }
  }
  return {};
}

/**
 * The file a tool call reads, from a shell command or an editor/read tool's arguments.
 * `parseCommand` reads a shell command (a caller may pass a remembering one).
 */
export function readCommandOf(call: ToolCallPart, parseCommand: (command: string) => ReadCommand | undefined = parseReadCommand): ReadCommand | undefined {
  const input = inputRecord(call);
  const pathKey = PATH_KEYS.find((key) => typeof input[key] === 'string');
  const path = pathKey ? (input[pathKey] as string) : undefined;
  if (input.command === 'view' && path) {
    return { path: resolveViewPath(path), wholeFile: input.view_range === undefined, numbered: true };
  }
  if (typeof input.command === 'string' && !path) return parseCommand(input.command);
  if (path && /read|view|open|cat/i.test(call.name)) {
    const ranged = ['offset', 'limit', 'start_line', 'end_line', 'view_range'].some((key) => input[key] !== undefined);
    return { path: resolveViewPath(path), wholeFile: !ranged, numbered: false, ...(ranged ? {} : { firstLine: 1 }) };
  }
  return undefined;
}

interface OutputRegion {
  readonly before: string;
  readonly code: string;
  readonly after: string;
  readonly headerPath?: string;
  /** The output was cut in the middle (mini-swe-agent `<output_head>` ... `<output_tail>`). */
  readonly truncated: boolean;
}

/** mini-swe-agent's notes around a long output's elided middle, kept as they are. */
export const TRUNCATION_MARKER = /^(<\/?(output_head|output_tail|elided_chars)>|\d+ characters elided)$/;

/** Separates the code from a tool's wrapper (`<returncode>..<output>`, the editor's header). */
function outputRegion(output: string): OutputRegion | undefined {
  const returnCode = /<returncode>(\d+)<\/returncode>/.exec(output);
  if (returnCode && returnCode[1] !== '0') return undefined;
  let before = '';
  let code = output;
  let after = '';
  const open = output.indexOf('<output>\n');
  const close = output.lastIndexOf('</output>');
  const headOpen = output.indexOf('<output_head>\n');
  const tailClose = output.lastIndexOf('\n</output_tail>');
  const truncated = headOpen >= 0 && tailClose > headOpen;
  if (truncated) {
    before = output.slice(0, headOpen + '<output_head>\n'.length);
    code = output.slice(before.length, tailClose);
    after = output.slice(tailClose);
  } else if (open >= 0 && close > open) {
    before = output.slice(0, open + '<output>\n'.length);
    code = output.slice(before.length, close);
    after = output.slice(close);
  } else if (returnCode) {
    return undefined; // truncated or unusual wrapper: leave it to other providers
  }
  const header = EDITOR_HEADER.exec(code);
  if (header) {
    before += header[0];
    code = code.slice(header[0].length);
  }
  // Counted from the end: `/\n*$/` retries at every newline of a long run in the middle (quadratic).
  let end = code.length;
  while (end > 0 && code.charCodeAt(end - 1) === 10) end -= 1;
  const trailingNewlines = code.slice(end);
  if (trailingNewlines) {
    code = code.slice(0, code.length - trailingNewlines.length);
    after = trailingNewlines + after;
  }
  return { before, code, after, truncated, ...(header ? { headerPath: header[1] } : {}) };
}

function looksLikeDiff(code: string): boolean {
  const lines = code.split('\n', 200);
  if (/^(diff --git|--- |Index: )/.test(lines[0] ?? '')) return true;
  return lines.filter((line) => /^@@ -\d+/.test(line)).length > 0 && lines.some((line) => /^\+\+\+ /.test(line));
}

/**
 * Recognises a tool result that shows a file: by the call (shell read commands, editor `view`,
 * read tools) and by the output's shape (line-number prefixes, the editor's `cat -n` header).
 */
export function detectToolView(call: ToolCallPart | undefined, output: string, messageIndex: number, partIndex: number): CodeView | undefined {
  return detectOutputView(call ? readCommandOf(call) : undefined, output, messageIndex, partIndex);
}

/** The view in a tool output, given what its call reads (undefined: the call reads no file). */
export function detectOutputView(read: ReadCommand | undefined, output: string, messageIndex: number, partIndex: number): CodeView | undefined {
  const region = outputRegion(output);
  if (!region) return undefined;
  if (!read && !region.headerPath) return undefined;
  const path = read?.path ?? resolveViewPath(region.headerPath!);
  if (/\.(diff|patch|json|lock|min\.js)$/.test(path) || looksLikeDiff(region.code)) return undefined;
  const rows = region.code.split('\n');
  if (rows.length < MIN_VIEW_ROWS) return undefined;
  const numbered = read?.numbered !== false || region.headerPath !== undefined;
  let lines: CodeLine[] | undefined = numbered ? splitNumberedLines(rows) : undefined;
  const markerRows = new Set<number>();
  if (!lines) {
    if (read?.numbered && !region.headerPath) return undefined; // promised numbers, found none: not code
    // After the elided middle, rows no longer count from the view's first line.
    const tailStart = region.truncated ? rows.indexOf('</output_head>') : -1;
    lines = plainLines(rows, read?.firstLine);
    if (tailStart >= 0) lines = [...lines.slice(0, tailStart), ...plainLines(rows.slice(tailStart))];
  }
  if (region.truncated) for (const [row, text] of rows.entries()) if (TRUNCATION_MARKER.test(text)) markerRows.add(row);
  const language = languageForPath(path) ?? guessLanguage(lines.map((line) => line.text).join('\n'));
  return {
    kind: 'file-view',
    messageIndex,
    partIndex,
    path,
    ...(language ? { language } : {}),
    before: region.before,
    lines,
    after: region.after,
    wholeFile: (read?.wholeFile ?? false) && !region.truncated,
    ...(markerRows.size > 0 ? { markerRows } : {}),
  };
}
