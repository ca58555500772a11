import { cannotExceedTokens, countTextUpTo, type TokenCounting, type ToolCallPart } from '@ollm/core';
import { extractIdentifiers } from '../identifiers/extract-identifiers.js';
import { NO_MEMO, type TextMemo } from '../cache/text-memo.js';
import type { NameLister } from './name-list.js';

export interface FoldCallOptions {
  /** A string argument over this many tokens is folded. */
  readonly minTokens: number;
  /** Characters kept of its first line. */
  readonly lineCharacters: number;
  /** Names of the folded text listed at most (0: none). */
  readonly maxNames: number;
  /** Keep the last line too when it is this short (a heredoc's `EOF` then `python reproduce.py`). */
  readonly tailCharacters: number;
}

function firstLine(text: string, characters: number): string {
  const line = text.trimStart().split('\n', 1)[0] ?? '';
  return line.length <= characters ? line : `${line.slice(0, characters - 1)}…`;
}

/** What folding a string takes from the string alone (everything but the names chosen and the reference). */
interface FoldedStringParts {
  readonly lineCount: number;
  readonly head: string;
  readonly headNames: readonly string[];
  readonly names: readonly string[];
  readonly tail: string;
}

function foldedStringParts(text: string, options: FoldCallOptions): FoldedStringParts {
  const lines = text.trimEnd().split('\n');
  const head = firstLine(text, options.lineCharacters);
  const last = lines.at(-1)!.trim();
  return {
    lineCount: lines.length,
    head,
    headNames: [...extractIdentifiers(head).keys()],
    names: options.maxNames > 0 ? [...extractIdentifiers(text).keys()] : [],
    tail: lines.length > 1 && last.length <= options.tailCharacters ? `\n${last}` : '',
  };
}

/** A long string argument as its first line, a note with the reference and names, and a short last line. */
function foldString(text: string, tag: string, names: { lister: NameLister; visible: ReadonlySet<string> }, options: FoldCallOptions, memo: TextMemo): string {
  const parts = memo.of(`folded-string ${options.lineCharacters} ${options.tailCharacters} ${options.maxNames > 0}`, text, (value) =>
    foldedStringParts(value, options),
  );
  const shown = new Set([...names.visible, ...parts.headNames]);
  const listed = options.maxNames > 0 ? names.lister.list(parts.names, shown, options.maxNames) : [];
  const note = `${tag} ${parts.lineCount} lines folded${listed.length > 0 ? `; names: ${listed.join(', ')}` : ''}`;
  return `${parts.head}\n${note}${parts.tail}`;
}

function foldValue(value: unknown, fold: (text: string) => string | undefined): unknown {
  if (typeof value === 'string') return fold(value) ?? value;
  if (Array.isArray(value)) return value.map((item) => foldValue(item, fold));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, foldValue(item, fold)]));
  }
  return value;
}

/**
 * The call with each long string argument folded (the shape of its arguments kept, so the call
 * still reads as the same tool with the same keys); undefined when nothing was long enough.
 */
export function foldCall(
  part: ToolCallPart,
  tag: string,
  tokens: TokenCounting,
  names: { lister: NameLister; visible: ReadonlySet<string> },
  options: FoldCallOptions,
  memo: TextMemo = NO_MEMO,
): ToolCallPart | undefined {
  let changed = false;
  const fold = (text: string): string | undefined => {
    // Only whether it is over: a short argument is not counted at all, a long one as far as `minTokens`.
    if (cannotExceedTokens(text, options.minTokens)) return undefined;
    if (!memo.of(`over ${options.minTokens}`, text, (value) => countTextUpTo(tokens, value, options.minTokens) > options.minTokens)) return undefined;
    changed = true;
    return foldString(text, tag, names, options, memo);
  };
  const parsed = part.input !== undefined && part.input !== null && typeof part.input === 'object';
  const input = parsed ? foldValue(part.input, fold) : part.input;
  const rawInput = parsed ? JSON.stringify(input) : part.rawInput !== undefined ? (fold(part.rawInput) ?? part.rawInput) : undefined;
  if (!changed) return undefined;
  return { ...part, input, ...(rawInput !== undefined ? { rawInput } : {}) };
}
