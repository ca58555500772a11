import { formatInteger, type TokenCounting } from '@ollm/core';
import { countingOwner } from './counting-owner.js';
import { PLACEHOLDER_PREFIX, SHA_PREFIX_LENGTH, shortenLine } from './tool-result-placeholder.js';
import type { RecordedRemoval } from './trim-workspace.js';

/**
 * Starts the line that stands for the folded middle of a tool-call argument. A shell comment, so
 * the folded command still reads as a command; it also marks the call as folded for later runs.
 */
export const FOLD_NOTE_PREFIX = `# ${PLACEHOLDER_PREFIX}`;

/** `<< 'EOF'`, `<<EOF`, `<<-"END"`: the delimiter that ends a heredoc opened on the first line. */
const HEREDOC_START = /<<-?\s*(['"]?)([A-Za-z_]\w*)\1/;

/** Lines after a heredoc's end kept when there are this many or fewer (usually the command that runs the script). */
export const LINES_AFTER_HEREDOC = 3;

export interface FoldCommandTextInput {
  readonly text: string;
  /** What the text is, for the note: `command`, or the argument name. */
  readonly label: string;
  readonly stored: RecordedRemoval;
  readonly lineCharacters: number;
  readonly tokens: TokenCounting;
}

/**
 * The lines kept at the end: from a heredoc's closing delimiter to the end when that is short
 * (`EOF` then `python reproduce.py`), else the last line. Trailing blank lines do not count.
 */
function tailLines(lines: readonly string[]): string[] {
  let end = lines.length;
  while (end > 1 && lines[end - 1]!.trim() === '') end--;
  if (end < 2) return [];
  const delimiter = HEREDOC_START.exec(lines[0]!)?.[2];
  if (delimiter !== undefined) {
    const earliest = Math.max(1, end - 1 - LINES_AFTER_HEREDOC);
    for (let index = end - 1; index >= earliest; index--) if (lines[index]!.trim() === delimiter) return lines.slice(index, end);
  }
  return [lines[end - 1]!];
}

/**
 * The folded text: the first line, the note (`removedTokens` written as the tokens folded, the
 * lines, how to recover) and the last line(s). Callers choose what the note counts; see
 * `foldCommandText`.
 */
export function renderCommandFold(input: FoldCommandTextInput, removedTokens: number): string {
  const lines = input.text.split('\n');
  const tail = tailLines(lines);
  const shortSha = input.stored.sha256.slice(0, SHA_PREFIX_LENGTH);
  const recovery = input.stored.path !== undefined ? `ollm recover ${shortSha}` : `NOT saved (no logdir configured), sha256 ${shortSha}`;
  // A final newline ends the last line; it does not start another.
  const count = input.text.endsWith('\n') ? lines.length - 1 : lines.length;
  const lineCount = count > 1 ? ` (${count} lines)` : '';
  const note = `${FOLD_NOTE_PREFIX} ${formatInteger(removedTokens)} tokens of this ${input.label} folded${lineCount}; ${recovery}`;
  return [shortenLine(lines[0]!, input.lineCharacters), note, ...tail.map((line) => shortenLine(line, input.lineCharacters))].join('\n');
}

/**
 * Folds a long command (or other tool-call argument) to its first line, a note with the tokens
 * folded and how to recover them, and its last line(s), so a model still sees which file was
 * written or what ran. Returns the text and its size in tokens (an upper bound by a token or two).
 */
export function foldCommandText(input: FoldCommandTextInput, textTokens: number): { text: string; tokens: number } {
  // The same argument folds the same way every time: a live session compacts it again and again.
  const key = `${input.stored.sha256} ${input.stored.path ?? ''} ${input.label} ${input.lineCharacters} ${textTokens}`;
  let known = folds.get(countingOwner(input.tokens));
  const cached = known?.get(key);
  if (cached) return cached;
  // As in the tool-result placeholder: measure a draft showing the full count (as many digits or
  // more), then show what that draft leaves.
  const draftTokens = input.tokens.countText(renderCommandFold(input, textTokens));
  const folded = { text: renderCommandFold(input, Math.max(0, textTokens - draftTokens)), tokens: draftTokens };
  if (!known) folds.set(countingOwner(input.tokens), (known = new Map()));
  if (known.size >= MAX_CACHED_FOLDS) known.delete(known.keys().next().value!);
  known.set(key, folded);
  return folded;
}

/** Folds made, per counting owner (`countingOwner`: counts differ between encodings), by what was folded and how. */
const folds = new WeakMap<object, Map<string, { readonly text: string; readonly tokens: number }>>();
const MAX_CACHED_FOLDS = 4096;
