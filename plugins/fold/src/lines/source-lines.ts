import type { Message } from '@ollm/core';
import { extractIdentifiers } from '../identifiers/extract-identifiers.js';
import { lineKind, normalizeLine, type LineKind } from './line-kinds.js';

/** Where lines come from: one tool result, or the text of one message (assistant prose, a folded chat turn). */
export interface LineSource {
  /** Position of the message in the conversation. */
  readonly message: number;
  /** Index of the part in the message. */
  readonly part: number;
  readonly origin: 'tool-result' | 'text';
  readonly lines: readonly SourceLine[];
  /** Lines the text had in all (a source may keep only some as candidates). */
  readonly lineCount: number;
}

export interface SourceLine {
  /** Order within its source. */
  readonly index: number;
  /** As written, trailing white space removed. */
  readonly text: string;
  readonly normalized: string;
  readonly kind: LineKind;
  readonly names: readonly string[];
  /** Short enough to be read as one fact (<= 240 characters) and more than a list of names (>= 8 other characters). */
  readonly isFact: boolean;
}

/** Longer lines are rarely worth their tokens to keep verbatim; JSON documents on one line are the usual case. */
export const MAXIMUM_LINE_CHARACTERS = 400;
const FACT_LINE_CHARACTERS = 240;
/** A tool's own wrapper around its output (`<output>`, `<returncode>0</returncode>`): the header says the exit status. */
const WRAPPER_LINE = /^<\/?[a-z_]+>(?:-?\d+<\/[a-z_]+>)?$/;
const FACT_OTHER_CHARACTERS = 8;

/** Characters of `line` that are not part of a name and not white space. */
function otherCharacters(line: string, names: readonly string[]): number {
  let rest = line;
  for (const name of [...names].sort((a, b) => b.length - a.length)) rest = rest.split(name).join(' ');
  return rest.replace(/\s+/g, '').length;
}

function sourceLine(index: number, raw: string): SourceLine | undefined {
  const text = raw.trimEnd();
  const normalized = normalizeLine(text);
  if (normalized.length < 2 || text.length > MAXIMUM_LINE_CHARACTERS || WRAPPER_LINE.test(normalized)) return undefined;
  const names = [...extractIdentifiers(text).keys()];
  const isFact = normalized.length <= FACT_LINE_CHARACTERS && otherCharacters(normalized, names) >= FACT_OTHER_CHARACTERS;
  return { index, text, normalized, kind: lineKind(normalized), names, isFact };
}

/** Sentences of chat prose: a turn of a long chat is read sentence by sentence. */
export function splitSentences(text: string): string[] {
  return text
    .split(/\n+/)
    .flatMap((paragraph) => paragraph.split(/(?<=[.!?])\s+(?=\S)/))
    .filter((sentence) => sentence.trim().length > 0);
}

/** Lines of `text` (a tool output, or prose by line), as candidates. */
export function linesOf(text: string, bySentence: boolean): { lines: SourceLine[]; count: number } {
  const pieces = bySentence ? splitSentences(text) : text.split('\n');
  const lines: SourceLine[] = [];
  pieces.forEach((piece, index) => {
    const line = sourceLine(index, piece);
    if (line) lines.push(line);
  });
  return { lines, count: pieces.length };
}

/**
 * The line sources of one message: each tool result by line; the text parts of an assistant
 * message (and, when `chat`, of a user message) by line, or by sentence for chat prose.
 */
export function sourcesOf(message: Message, position: number, chat: boolean): LineSource[] {
  const sources: LineSource[] = [];
  message.parts.forEach((part, index) => {
    if (part.type === 'tool-result') {
      const { lines, count } = linesOf(part.output, false);
      sources.push({ message: position, part: index, origin: 'tool-result', lines, lineCount: count });
    } else if (part.type === 'text' && (message.role === 'assistant' || (chat && message.role === 'user'))) {
      const { lines, count } = linesOf(part.text, chat);
      sources.push({ message: position, part: index, origin: 'text', lines, lineCount: count });
    }
  });
  return sources;
}
