import { sha256Hex, type Message, type MessagePart, type TokenCounting, type ToolCallPart } from '@ollm/core';
import { foldedPiece, REFERENCE_LENGTH, referenceTag, type FoldedPiece } from '../plan/folded-piece.js';
import { exitStatus } from './call-label.js';

/** The first line of a reduced tool output: its reference, its size and exit status. */
export function reducedOutputHead(output: string, sha256: string): string {
  const lines = output.split('\n').length;
  const status = exitStatus(output);
  return `${referenceTag(sha256)} ${lines} lines${status !== undefined ? `, exit ${status}` : ''}`;
}

/**
 * A long string argument of a call, shortened in place: its first line, the reference of the
 * whole argument with the lines left out, and a short last line (a heredoc's `EOF`), so the call
 * itself says it was cut and `ollm recover` gives it back.
 */
export function shortenedArgument(value: string, sha256: string, characters: number): string {
  const lines = value.split('\n');
  const first = lines[0]!.length > characters ? `${lines[0]!.slice(0, characters)}…` : lines[0]!;
  const last = lines.length > 1 && lines[lines.length - 1]!.trim().length <= 12 ? lines[lines.length - 1]! : undefined;
  const omitted = lines.length - 1 - (last === undefined ? 0 : 1);
  return [
    first,
    `${referenceTag(sha256)} ${omitted} more line${omitted === 1 ? '' : 's'} (the whole argument: ollm recover ${sha256.slice(0, REFERENCE_LENGTH)})`,
    ...(last === undefined ? [] : [last]),
  ].join('\n');
}

export interface ReducedTurn {
  readonly messages: readonly Message[];
  readonly pieces: readonly FoldedPiece[];
}

/** Deeper than this, arguments are left as they are: no agent writes its commands there, and the walk stays bounded. */
const MAXIMUM_ARGUMENT_DEPTH = 32;

/** Copies `value` with every string over `longEnough` (within MAXIMUM_ARGUMENT_DEPTH) replaced by `shorten(string)`. */
function mapStrings(value: unknown, longEnough: (text: string) => boolean, shorten: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return longEnough(value) ? shorten(value) : value;
  if (depth >= MAXIMUM_ARGUMENT_DEPTH) return value;
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, longEnough, shorten, depth + 1));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, mapStrings(item, longEnough, shorten, depth + 1)]));
  }
  return value;
}

export interface ReduceOptions {
  readonly tokens: TokenCounting;
  /** String arguments over this many tokens are shortened. */
  readonly minCallTokens: number;
  readonly lineCharacters: number;
  /** The lines kept of each tool result, by `messagePosition:partIndex`, in order. */
  readonly keptLines: (position: number, part: number) => readonly string[];
}

/**
 * A turn kept in place but smaller: reasoning removed, long call arguments shortened (with their
 * reference inside the argument), each tool output its reference, size and exit status, then the
 * lines chosen of it, verbatim. An output no longer than its stub stays whole.
 */
export function reduceTurn(messages: readonly Message[], positions: readonly number[], options: ReduceOptions): ReducedTurn {
  const pieces: FoldedPiece[] = [];
  const out: Message[] = [];
  for (const position of positions) {
    const message = messages[position]!;
    const parts: MessagePart[] = [];
    message.parts.forEach((part, index) => {
      if (part.type === 'reasoning') {
        pieces.push(foldedPiece(message.id, 'reasoning', part.text, options.tokens));
        return;
      }
      if (part.type === 'tool-call') {
        parts.push(shortenCall(part, message.id, pieces, options));
        return;
      }
      if (part.type === 'tool-result') {
        const sha256 = sha256Hex(part.output);
        const head = reducedOutputHead(part.output, sha256);
        const kept = options.keptLines(position, index);
        const output = [head, ...kept].join('\n');
        if (options.tokens.countText(output) >= options.tokens.countText(part.output)) {
          parts.push(part);
          return;
        }
        pieces.push(foldedPiece(message.id, 'tool-result', part.output, options.tokens, sha256));
        parts.push({ ...part, output });
        return;
      }
      parts.push(part);
    });
    // A message left with nothing (reasoning only) keeps a note, so no empty message is sent.
    if (parts.length === 0) parts.push({ type: 'text', text: '(reasoning folded)' });
    out.push({ ...message, parts });
  }
  return { messages: out, pieces };
}

function shortenCall(part: ToolCallPart, messageId: string, pieces: FoldedPiece[], options: ReduceOptions): ToolCallPart {
  let changed = false;
  const longEnough = (text: string) => text.length > options.minCallTokens && options.tokens.countText(text) > options.minCallTokens;
  const shorten = (text: string) => {
    const saved = foldedPiece(messageId, 'tool-call-arguments', text, options.tokens);
    const short = shortenedArgument(text, saved.sha256, options.lineCharacters);
    if (options.tokens.countText(short) >= saved.originalTokens) return text;
    pieces.push(saved);
    changed = true;
    return short;
  };
  let input: unknown = part.input;
  if (part.rawInput !== undefined) {
    try {
      input = JSON.parse(part.rawInput) as unknown;
    } catch {
      return part;
    }
  }
  const shortened = mapStrings(input, longEnough, shorten);
  if (!changed) return part;
  return { ...part, input: shortened, ...(part.rawInput !== undefined ? { rawInput: JSON.stringify(shortened) } : {}) };
}
