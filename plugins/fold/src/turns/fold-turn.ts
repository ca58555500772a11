import { sha256Hex, toolCallArguments, withParts, type Message, type MessagePart, type TokenCounting, type ToolCallPart } from '@ollm/core';
import { NO_MEMO, type TextMemo } from '../cache/text-memo.js';
import { foldCall } from '../digest/fold-call.js';
import type { ListEnd } from '../digest/names-list-tokens.js';
import { exitStatus, measuredOutputDigest } from '../digest/output-digest.js';
import type { NameLister } from '../digest/name-list.js';
import { foldedPiece, isFoldText, referenceTag, type FoldedPiece } from '../digest/reference.js';
import { savedForm } from '../digest/saved-form.js';
import { extractIdentifiers } from '../identifiers/extract-identifiers.js';
import { partVisibleText } from '../identifiers/visible-text.js';
import type { ResolvedFoldOptions } from '../fold-options.js';
import type { TextMeasure } from './text-measure.js';

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
  /** The one way a rendering reads the rest of the conversation: which names are worth listing. */
  readonly names: NameLister;
  readonly options: ResolvedFoldOptions;
  /** What is read from the turn's texts, kept for the next rendering of the same turn. */
  readonly memo?: TextMemo;
  /** Measures what the rendering writes, as it writes it. */
  readonly measure?: TextMeasure;
}

/** A folded piece whose sha256 is kept in `memo`. */
function memoPiece(memo: TextMemo, messageId: string, kind: string, content: string): FoldedPiece {
  return { messageId, kind, content, sha256: memo.of('sha256', content, sha256Hex) };
}

/** What a call's folded arguments leave out besides what the lister does: nothing. */
const NOTHING_SHOWN: ReadonlySet<string> = new Set();

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
function callHeadNames(messages: readonly Message[], characters: number, memo: TextMemo): Set<string> {
  const shown = new Set<string>();
  for (const message of messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      const head = firstLine(partVisibleText(part), characters);
      for (const name of memo.of('identifiers', head, (text) => [...extractIdentifiers(text).keys()])) shown.add(name);
    }
  }
  return shown;
}

function level2(messages: readonly Message[], context: FoldTurnContext, pieces: FoldedPiece[]): Message[] {
  const { tokens, names, options } = context;
  const memo = context.memo ?? NO_MEMO;
  const countText = (text: string): number => memo.of('tokens', text, (value) => tokens.countText(value));
  const visible = callHeadNames(messages, options.lineCharacters, memo);
  return messages.map((message) => {
    let changed = false;
    const parts = message.parts.map((part): MessagePart => {
      if (part.type === 'tool-result' && !isFoldText(part.output) && countText(part.output) > options.minOutputTokens) {
        const piece = memoPiece(memo, message.id, 'tool-output', part.output);
        const digest = measuredOutputDigest(
          referenceTag(piece),
          part.output,
          part.isError,
          { lister: names, visible },
          { maxNames: options.maxDigestNames, maxLines: 3 },
          memo,
          context.measure,
        );
        if ((digest.tokens ?? tokens.countText(digest.text)) >= countText(part.output)) return part;
        pieces.push(piece);
        changed = true;
        const folded = { ...part, output: digest.text };
        context.measure?.note(folded, digest.tokens, digest.names);
        return folded;
      }
      if (part.type === 'tool-call') {
        const raw = toolCallArguments(part);
        const piece = memoPiece(memo, message.id, 'tool-call-input', raw);
        const folded = foldCall(
          part,
          referenceTag(piece),
          tokens,
          // The names system and user messages show are left out by the lister itself.
          { lister: names, visible: NOTHING_SHOWN },
          {
            minTokens: options.minCallTokens,
            lineCharacters: options.lineCharacters,
            maxNames: options.maxCallNames,
            tailCharacters: 60,
          },
          memo,
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

/** Notes what `part`, whose text is `lead` and then `names` listed up to `end` (or `lead` alone), costs and shows. */
function measureListed(measure: TextMeasure | undefined, part: MessagePart, lead: string, names: readonly string[], end: ListEnd): void {
  if (measure === undefined) return;
  const shown = [...measure.identifiers(lead)];
  for (const name of names) shown.push(...measure.identifiers(name));
  const tokens = measure.text(lead);
  measure.note(part, names.length === 0 || tokens === undefined ? tokens : measure.listed(lead, names, end), shown);
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

function level3(originals: readonly Message[], context: FoldTurnContext, pieces: FoldedPiece[], whole: FoldedPiece): Message[] {
  // The one-liners are cut from the messages without their reasoning: level 1 removed it first.
  const stripped = originals.map((message) => stripReasoning(message, []));
  const { names, options } = context;
  const memo = context.memo ?? NO_MEMO;
  const identifiers = (text: string): readonly string[] => memo.of('identifiers', text, (value) => [...extractIdentifiers(value).keys()]);
  pieces.push(whole);
  const tag = referenceTag(whole);
  const visible = callHeadNames(originals, options.lineCharacters, memo);
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
        const listed = names.list(identifiers(part.text), new Set(identifiers(line)), options.maxLineNames);
        const written: MessagePart = { type: 'text', text: listed.length > 0 ? `${line} (names: ${listed.join(', ')})` : line };
        parts.push(written);
        measureListed(context.measure, written, listed.length > 0 ? `${line} (names:` : line, listed, ')');
      } else if (part.type === 'tool-call') {
        parts.push(oneLineCall(part, options.lineCharacters));
      } else {
        const size = memo.of(`one-line size ${String(part.isError)}`, part.output, (output) => {
          const status = exitStatus(output, part.isError);
          return `${output.split('\n').length} lines${status ? `, ${status}` : ''}`;
        });
        const listed = names.list(identifiers(part.output), visible, options.maxLineNames);
        const head = tagged ? '[ollm fold]' : tag;
        tagged = true;
        const written: MessagePart = { ...part, output: `${head} ${size}${listed.length > 0 ? `; names: ${listed.join(', ')}` : ''}` };
        parts.push(written);
        measureListed(context.measure, written, listed.length > 0 ? `${head} ${size}; names:` : `${head} ${size}`, listed, '');
      }
    }
    if (parts.length === 0) parts.push({ type: 'text', text: tag });
    return withParts(message, parts);
  });
}

/**
 * The messages of one turn at `level` (1 to 3; 0 is the turn as it is, 4 is dropped and has no
 * messages of its own) and the pieces that level takes out of view. `whole` is the piece saving
 * the whole turn (level 3), when known already.
 */
export function foldTurn(originals: readonly Message[], level: FoldLevel, context: FoldTurnContext, whole?: () => FoldedPiece): FoldedTurn {
  const pieces: FoldedPiece[] = [];
  if (level === 0) return { messages: originals, pieces };
  if (level === 4) return { messages: [], pieces };
  if (level === 3) {
    const piece = whole?.() ?? foldedPiece(originals[0]!.id, 'turn', savedForm(originals));
    return { messages: level3(originals, context, pieces, piece), pieces };
  }
  const stripped = originals.map((message) => stripReasoning(message, pieces));
  if (level === 1) return { messages: stripped, pieces };
  return { messages: level2(stripped, context, pieces), pieces };
}
