import type { TokenCounting, ToolCallPart } from '@ollm/core';
import { extractIdentifiers } from '../identifiers/extract-identifiers.js';
import type { NameIndex } from '../identifiers/name-index.js';
import { namesToList } from './name-list.js';

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

/** A long string argument as its first line, a note with the reference and names, and a short last line. */
function foldString(text: string, tag: string, names: { index: NameIndex; visible: ReadonlySet<string> }, options: FoldCallOptions): string {
  const lines = text.trimEnd().split('\n');
  const head = firstLine(text, options.lineCharacters);
  const shown = new Set([...names.visible, ...extractIdentifiers(head).keys()]);
  const listed = options.maxNames > 0 ? namesToList(extractIdentifiers(text).keys(), names.index, shown, options.maxNames) : [];
  const note = `${tag} ${lines.length} lines folded${listed.length > 0 ? `; names: ${listed.join(', ')}` : ''}`;
  const last = lines.at(-1)!.trim();
  const tail = lines.length > 1 && last.length <= options.tailCharacters ? `\n${last}` : '';
  return `${head}\n${note}${tail}`;
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
  names: { index: NameIndex; visible: ReadonlySet<string> },
  options: FoldCallOptions,
): ToolCallPart | undefined {
  let changed = false;
  const fold = (text: string): string | undefined => {
    if (tokens.countText(text) <= options.minTokens) return undefined;
    changed = true;
    return foldString(text, tag, names, options);
  };
  const parsed = part.input !== undefined && part.input !== null && typeof part.input === 'object';
  const input = parsed ? foldValue(part.input, fold) : part.input;
  const rawInput = parsed ? JSON.stringify(input) : part.rawInput !== undefined ? (fold(part.rawInput) ?? part.rawInput) : undefined;
  if (!changed) return undefined;
  return { ...part, input, ...(rawInput !== undefined ? { rawInput } : {}) };
}
