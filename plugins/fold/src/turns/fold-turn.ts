import { withParts, type Message, type MessagePart, type TokenCounting, type ToolCallPart } from '@ollm/core';
import { foldCall } from '../digest/fold-call.js';
import { outputDigest, exitStatus } from '../digest/output-digest.js';
import { namesToList } from '../digest/name-list.js';
import { foldedPiece, isFoldText, referenceTag, type FoldedPiece } from '../digest/reference.js';
import { extractIdentifiers } from '../identifiers/extract-identifiers.js';
import type { NameIndex } from '../identifiers/name-index.js';
import { partVisibleText } from '../identifiers/visible-text.js';
import type { ResolvedFoldOptions } from '../fold-options.js';

/**
 * How far a turn is folded, in the order a careful engineer gives things up:
 * 0 whole; 1 reasoning removed; 2 tool outputs folded to digests and long call inputs to their
 * first line; 3 the turn as one line per message (action and outcome); 4 dropped, its names kept
 * in the digest of the run of dropped turns.
 */
export type FoldLevel = 0 | 1 | 2 | 3 | 4;

export interface FoldedTurn {
  readonly messages: readonly Message[];
  readonly pieces: readonly FoldedPiece[];
}

export interface FoldTurnContext {
  readonly tokens: TokenCounting;
  readonly index: NameIndex;
  readonly options: ResolvedFoldOptions;
}

const THINK_BLOCK = /<(think|thinking)>[\s\S]*?<\/\1>/;
const THINK_BLOCKS = new RegExp(THINK_BLOCK.source, 'g');

function stripReasoning(message: Message, pieces: FoldedPiece[]): Message {
  if (message.role !== 'assistant') return message;
  const parts: MessagePart[] = [];
  let changed = false;
  for (const part of message.parts) {
    if (part.type === 'reasoning') {
      pieces.push(foldedPiece(message.id, 'reasoning', part.text));
      changed = true;
    } else if (part.type === 'text' && THINK_BLOCK.test(part.text)) {
      const text = part.text.replace(THINK_BLOCKS, (block) => {
        pieces.push(foldedPiece(message.id, 'reasoning', block));
        return '';
      });
      changed = true;
      if (text.trim().length > 0) parts.push({ ...part, text: text.replace(/\n{3,}/g, '\n\n').trim() });
    } else {
      parts.push(part);
    }
  }
  if (!changed) return message;
  return withParts(message, parts.length > 0 ? parts : [{ type: 'text', text: '[ollm fold] reasoning removed' }]);
}

function firstLine(text: string, characters: number): string {
  const line = text.trim().split('\n', 1)[0]!.trim();
  return line.length <= characters ? line : `${line.slice(0, characters - 1)}…`;
}

/** The first sentence of a text (or its first line), cut to `characters`. */
function firstSentence(text: string, characters: number): string {
  const line = firstLine(text, Number.MAX_SAFE_INTEGER);
  const sentence = /^.*?[.!?](?=\s|$)/.exec(line)?.[0] ?? line;
  return sentence.length <= characters ? sentence : `${sentence.slice(0, characters - 1)}…`;
}

/** Names a turn's calls show on their first lines: a digest of their results need not list them again. */
function callHeadNames(messages: readonly Message[], characters: number): Set<string> {
  const shown = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      for (const name of extractIdentifiers(firstLine(partVisibleText(part), characters)).keys()) shown.add(name);
    }
  }
  return shown;
}

function level2(messages: readonly Message[], context: FoldTurnContext, pieces: FoldedPiece[]): Message[] {
  const { tokens, index, options } = context;
  const visible = callHeadNames(messages, options.lineCharacters);
  return messages.map((message) => {
    let changed = false;
    const parts = message.parts.map((part): MessagePart => {
      if (part.type === 'tool-result' && !isFoldText(part.output) && tokens.countText(part.output) > options.minOutputTokens) {
        const piece = foldedPiece(message.id, 'tool-output', part.output);
        const digest = outputDigest(referenceTag(piece), part.output, part.isError, { index, visible }, { maxNames: options.maxDigestNames, maxLines: 3 });
        if (tokens.countText(digest) >= tokens.countText(part.output)) return part;
        pieces.push(piece);
        changed = true;
        return { ...part, output: digest };
      }
      if (part.type === 'tool-call') {
        const raw = part.rawInput ?? JSON.stringify(part.input ?? null);
        const piece = foldedPiece(message.id, 'tool-call-input', raw);
        const folded = foldCall(
          part,
          referenceTag(piece),
          tokens,
          { index, visible: index.alwaysVisible },
          {
            minTokens: options.minCallTokens,
            lineCharacters: options.lineCharacters,
            maxNames: options.maxCallNames,
            tailCharacters: 60,
          },
        );
        if (folded === undefined) return part;
        pieces.push(piece);
        changed = true;
        return folded;
      }
      return part;
    });
    return changed ? withParts(message, parts) : message;
  });
}

function oneLineCall(part: ToolCallPart, characters: number): ToolCallPart {
  const shorten = (value: unknown): unknown => {
    if (typeof value === 'string') return value.length <= characters && !value.includes('\n') ? value : firstLine(value, characters);
    if (Array.isArray(value)) return value.map(shorten);
    if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, shorten(item)]));
    return value;
  };
  if (part.input === undefined || part.input === null || typeof part.input !== 'object') {
    return part.rawInput !== undefined ? { ...part, rawInput: firstLine(part.rawInput, characters) } : part;
  }
  const input = shorten(part.input);
  return { ...part, input, rawInput: JSON.stringify(input) };
}

function level3(originals: readonly Message[], context: FoldTurnContext, pieces: FoldedPiece[]): Message[] {
  // The one-liners are cut from the messages without their reasoning: level 1 removed it first.
  const stripped = originals.map((message) => stripReasoning(message, []));
  const { index, options } = context;
  const whole = foldedPiece(originals[0]!.id, 'turn', savedForm(originals));
  pieces.push(whole);
  const tag = referenceTag(whole);
  const visible = callHeadNames(originals, options.lineCharacters);
  let tagged = false;
  return stripped.map((message) => {
    const hasCalls = message.parts.some((part) => part.type === 'tool-call');
    const parts: MessagePart[] = [];
    for (const part of message.parts) {
      if (part.type === 'reasoning' || part.type === 'file') continue;
      if (part.type === 'text') {
        // With a call, the call is the action: the prose around it goes.
        if (hasCalls || parts.some((kept) => kept.type === 'text')) continue;
        const line = firstSentence(part.text, options.lineCharacters);
        if (line.length === 0) continue;
        const listed = namesToList(extractIdentifiers(part.text).keys(), index, new Set(extractIdentifiers(line).keys()), options.maxLineNames);
        parts.push({ type: 'text', text: listed.length > 0 ? `${line} (names: ${listed.join(', ')})` : line });
      } else if (part.type === 'tool-call') {
        parts.push(oneLineCall(part, options.lineCharacters));
      } else {
        const lines = part.output.split('\n').length;
        const status = exitStatus(part.output, part.isError);
        const listed = namesToList(extractIdentifiers(part.output).keys(), index, visible, options.maxLineNames);
        const head = tagged ? '[ollm fold]' : tag;
        tagged = true;
        parts.push({ ...part, output: `${head} ${lines} lines${status ? `, ${status}` : ''}${listed.length > 0 ? `; names: ${listed.join(', ')}` : ''}` });
      }
    }
    if (parts.length === 0) parts.push({ type: 'text', text: tag });
    return withParts(message, parts);
  });
}

/** Messages as they are saved for recovery: every field, so `ollm recover` gives them back whole. */
export function savedForm(messages: readonly Message[]): string {
  return JSON.stringify(messages, null, 1);
}

/**
 * The messages of one turn at `level` (1 to 3; 0 is the turn as it is, 4 is dropped and has no
 * messages of its own) and the pieces that level takes out of view.
 */
export function foldTurn(originals: readonly Message[], level: FoldLevel, context: FoldTurnContext): FoldedTurn {
  const pieces: FoldedPiece[] = [];
  if (level === 0) return { messages: originals, pieces };
  if (level === 4) return { messages: [], pieces };
  if (level === 3) return { messages: level3(originals, context, pieces), pieces };
  const stripped = originals.map((message) => stripReasoning(message, pieces));
  if (level === 1) return { messages: stripped, pieces };
  return { messages: level2(stripped, context, pieces), pieces };
}
