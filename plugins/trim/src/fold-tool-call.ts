import type { TokenCounting, ToolCallPart } from '@ollm/core';
import { FOLD_NOTE_PREFIX, foldCommandText } from './fold-command-text.js';
import type { RecordedRemoval } from './trim-workspace.js';

/** A fold must save at least this share of what it replaces (the argument, and the whole call). */
export const MINIMUM_FOLD_SAVING = 0.25;

export interface FoldToolCallOptions {
  readonly stored: RecordedRemoval;
  readonly lineCharacters: number;
  readonly tokens: TokenCounting;
}

/** The arguments as the model sees them: the source's raw string, else the JSON of `input`. */
export function rawToolCallInput(part: ToolCallPart): string {
  return part.rawInput ?? JSON.stringify(part.input ?? null);
}

/** True once a call carries a fold note: it is never folded again, in this run or a later one. */
export function isFoldedToolCall(part: ToolCallPart): boolean {
  return rawToolCallInput(part).includes(FOLD_NOTE_PREFIX);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One argument folded, or undefined when folding it would save too little. */
function foldArgument(value: string, key: string | undefined, options: FoldToolCallOptions): string | undefined {
  const valueTokens = options.tokens.countText(value);
  const label = key === undefined || key === 'command' || key === 'cmd' ? 'command' : `\`${key}\``;
  const folded = foldCommandText({ text: value, label, stored: options.stored, lineCharacters: options.lineCharacters, tokens: options.tokens }, valueTokens);
  return folded.tokens <= (1 - MINIMUM_FOLD_SAVING) * valueTokens ? folded.text : undefined;
}

/**
 * The call with its long string arguments folded (`{ command: "<folded>" }`: same keys, same
 * types), or undefined when nothing is worth folding. `rawInput` is rewritten to match, since
 * writers emit it as the arguments: the JSON of the folded input, or the folded string when the
 * source carried a plain string. A call without `rawInput` keeps none, so writers that send
 * arguments as objects (Ollama, Anthropic) still do. Nested values are left as they are.
 */
export function foldToolCall(part: ToolCallPart, options: FoldToolCallOptions): ToolCallPart | undefined {
  const input = part.input;
  if (typeof input === 'string') {
    const folded = foldArgument(input, undefined, options);
    if (folded === undefined) return undefined;
    const rawInput = part.rawInput === undefined ? {} : { rawInput: part.rawInput === input ? folded : JSON.stringify(folded) };
    return { ...part, input: folded, ...rawInput };
  }
  if (!isPlainObject(input)) return undefined;
  let changed = false;
  const folded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    const replacement = typeof value === 'string' ? foldArgument(value, key, options) : undefined;
    if (replacement !== undefined) changed = true;
    folded[key] = replacement ?? value;
  }
  if (!changed) return undefined;
  return { ...part, input: folded, ...(part.rawInput === undefined ? {} : { rawInput: JSON.stringify(folded) }) };
}
