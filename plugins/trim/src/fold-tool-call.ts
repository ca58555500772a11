import { countTextUpTo, toolCallArguments, type TokenCounting, type ToolCallPart } from '@ollm/core';
import { countingOwner } from './counting-owner.js';
import { FOLD_NOTE_PREFIX, foldCommandText, renderCommandFold, type FoldCommandTextInput } from './fold-command-text.js';
import type { RecordedRemoval } from './trim-workspace.js';

/** A fold must save at least this share of what it replaces (the argument, and the whole call). */
export const MINIMUM_FOLD_SAVING = 0.25;

export interface FoldToolCallOptions {
  readonly stored: RecordedRemoval;
  readonly lineCharacters: number;
  readonly tokens: TokenCounting;
  /**
   * Tokens of the call's arguments as the model reads them (`rawToolCallInput`), when the caller
   * has counted them already (the host counts every call); counted here otherwise.
   */
  readonly inputTokens?: number;
}

/** The arguments as the model sees them: the source's raw string, else the JSON of `input`. */
export function rawToolCallInput(part: ToolCallPart): string {
  return toolCallArguments(part);
}

/** True once a call carries a fold note: it is never folded again, in this run or a later one. */
export function isFoldedToolCall(part: ToolCallPart): boolean {
  return rawToolCallInput(part).includes(FOLD_NOTE_PREFIX);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The key of a plain-string input, which has none. */
const WHOLE_INPUT = Symbol('whole input');
type ArgumentKey = string | typeof WHOLE_INPUT;

/** The top-level string arguments of a call (a plain-string input is one); nested values are never folded. */
function stringArguments(input: unknown): Map<ArgumentKey, string> {
  if (typeof input === 'string') return new Map([[WHOLE_INPUT, input]]);
  if (!isPlainObject(input)) return new Map();
  return new Map(Object.entries(input).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function commandInput(key: ArgumentKey, value: string, options: FoldToolCallOptions): FoldCommandTextInput {
  const label = key === WHOLE_INPUT || key === 'command' || key === 'cmd' ? 'command' : `\`${key}\``;
  return { text: value, label, stored: options.stored, lineCharacters: options.lineCharacters, tokens: options.tokens };
}

/**
 * Whether folding `value` to a text of `foldedTokens` tokens saves at least MINIMUM_FOLD_SAVING of
 * it. `value` is counted only as far as that takes (the first few hundred tokens of a long
 * script), not whole.
 */
export function foldSavesEnough(value: string, foldedTokens: number, tokens: TokenCounting): boolean {
  const needed = Math.ceil(foldedTokens / (1 - MINIMUM_FOLD_SAVING));
  return needed <= 0 || countTextUpTo(tokens, value, needed - 1) >= needed;
}

/** The call with the arguments in `folded` replaced: the same keys and types, `rawInput` rewritten to match. */
function withArguments(part: ToolCallPart, folded: ReadonlyMap<ArgumentKey, string>): ToolCallPart {
  const whole = folded.get(WHOLE_INPUT);
  if (whole !== undefined) {
    const rawInput = part.rawInput === undefined ? {} : { rawInput: part.rawInput === part.input ? whole : JSON.stringify(whole) };
    return { ...part, input: whole, ...rawInput };
  }
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(part.input as Record<string, unknown>)) input[key] = folded.get(key) ?? value;
  return { ...part, input, ...(part.rawInput === undefined ? {} : { rawInput: JSON.stringify(input) }) };
}

/** The folded texts of the arguments worth folding (none: nothing is). */
function foldedArguments(part: ToolCallPart, options: FoldToolCallOptions): Map<ArgumentKey, string> {
  const inputTokens = options.inputTokens ?? options.tokens.countText(rawToolCallInput(part));
  const strings = stringArguments(part.input);
  const drafts = new Map<ArgumentKey, string>();
  for (const [key, value] of strings) {
    // The draft shows the call's tokens: as many digits as any share of them (or more), so the
    // final text, showing fewer, has at most the draft's tokens.
    const draft = renderCommandFold(commandInput(key, value, options), inputTokens);
    if (foldSavesEnough(value, options.tokens.countText(draft), options.tokens)) drafts.set(key, draft);
  }
  if (drafts.size === 1) {
    // One argument folded: its note counts what the call's arguments lose as the model reads them
    // (in their JSON), from the call's count and the draft's, so the long argument itself is
    // never tokenised again.
    const [key] = drafts.keys();
    const draftTokens = options.tokens.countText(rawToolCallInput(withArguments(part, drafts)));
    return new Map([[key!, renderCommandFold(commandInput(key!, strings.get(key!)!, options), Math.max(0, inputTokens - draftTokens))]]);
  }
  // Several: each note counts its own argument.
  const folded = new Map<ArgumentKey, string>();
  for (const key of drafts.keys()) {
    const input = commandInput(key, strings.get(key)!, options);
    folded.set(key, foldCommandText(input, options.tokens.countText(input.text)).text);
  }
  return folded;
}

/** Folds made, per counting owner (counts differ between encodings) and call, by how they were made. */
const made = new WeakMap<object, WeakMap<ToolCallPart, Map<string, ToolCallPart | null>>>();

/**
 * The call with its long string arguments folded (`{ command: "<folded>" }`: same keys, same
 * types), or undefined when nothing is worth folding: an argument is folded when that saves at
 * least 25% of its tokens. Each note says how many tokens were folded: with one argument folded,
 * what the call's arguments lost as the model reads them; with several, each its own argument's.
 * `rawInput` is rewritten to match, since writers emit it as the arguments: the JSON of the folded
 * input, or the folded string when the source carried a plain string. A call without `rawInput`
 * keeps none, so writers that send arguments as objects (Ollama, Anthropic) still do. Nested
 * values are left as they are. The same call folds the same way every time (a live session
 * compacts it again and again), and is remembered per call object.
 */
export function foldToolCall(part: ToolCallPart, options: FoldToolCallOptions): ToolCallPart | undefined {
  const owner = countingOwner(options.tokens);
  let byPart = made.get(owner);
  if (!byPart) made.set(owner, (byPart = new WeakMap()));
  let byOptions = byPart.get(part);
  if (!byOptions) byPart.set(part, (byOptions = new Map()));
  const key = `${options.stored.sha256} ${options.stored.path ?? ''} ${options.lineCharacters} ${options.inputTokens ?? ''}`;
  let folded = byOptions.get(key);
  if (folded === undefined) {
    const argumentsFolded = foldedArguments(part, options);
    folded = argumentsFolded.size === 0 ? null : withArguments(part, argumentsFolded);
    byOptions.set(key, folded);
  }
  return folded ?? undefined;
}
