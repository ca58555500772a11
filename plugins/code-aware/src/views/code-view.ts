import type { LanguageId } from '../grammar/language-id.js';

/** One displayed row of code: `prefix` is the line-number column kept for display, `text` the code. */
export interface CodeLine {
  readonly prefix: string;
  readonly text: string;
  /** 1-based line number in the file, when the view shows or implies it. */
  readonly number?: number;
}

/**
 * Code found in a message part: a file view in a tool result, a fenced block in assistant text,
 * or a script the assistant wrote with a heredoc in a shell call. The part's text (for a script,
 * the call's `command`) is `before + lines (prefix + text, joined by \n) + after`.
 */
export interface CodeView {
  readonly kind: 'file-view' | 'code-block' | 'script';
  readonly messageIndex: number;
  readonly partIndex: number;
  /** Normalised path of the file shown (absolute when the command's working directory is known). */
  readonly path?: string;
  readonly language?: LanguageId;
  readonly before: string;
  readonly lines: readonly CodeLine[];
  readonly after: string;
  /** True when the view shows the whole file (`cat FILE`, an editor view without a range). */
  readonly wholeFile: boolean;
  /** Rows that are the tool's own notes inside the code (`<elided_chars>`): never folded, never parsed. */
  readonly markerRows?: ReadonlySet<number>;
}

/** First and last line numbers a view shows, when known. */
export function viewLineRange(view: CodeView): readonly [number, number] | undefined {
  let first: number | undefined;
  let last: number | undefined;
  for (const line of view.lines) {
    if (line.number === undefined) continue;
    first ??= line.number;
    last = line.number;
  }
  return first === undefined || last === undefined ? undefined : [first, last];
}
