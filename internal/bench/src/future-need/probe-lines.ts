import type { Message } from '@ollm/core';
import { containsProbe } from '../retention.js';
import { searchableParts, searchableText } from './searchable-parts.js';

/** Runs of whitespace (newlines too) as one space, trimmed: how B, C and D lines are compared. */
export function normaliseLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** `messages`' searchable text (tool-call arguments decoded), normalised as one line: what a line probe is looked for in. */
export function normalisedText(messages: readonly Message[]): string {
  return normaliseLine(searchableText(messages));
}

/**
 * True when `text` (normalised) holds `line` (normalised) verbatim: a substring whose ends do not
 * cut into a word (containsProbe, the bench's rule for every probe), so `OK` is not found in `OKAY`.
 */
export function holdsLine(text: string, line: string): boolean {
  return containsProbe(text, line);
}

/** One line of a tool result of the prefix, in order. */
export interface OutputLine {
  /** Position of the tool message in the prefix. */
  readonly message: number;
  /** The line as the tool printed it (literal `\n` escapes read as spaces, as searchableParts reads them). */
  readonly raw: string;
  readonly normalised: string;
}

/** Every non-blank line of every tool result of `messages`, message by message, top to bottom. */
export function toolOutputLines(messages: readonly Message[]): OutputLine[] {
  const lines: OutputLine[] = [];
  for (const part of searchableParts(messages)) {
    if (part.place !== 'tool-result' || messages[part.message]!.role !== 'tool') continue;
    for (const raw of part.text.split('\n')) {
      const normalised = normaliseLine(raw);
      if (normalised !== '') lines.push({ message: part.message, raw, normalised });
    }
  }
  return lines;
}

// `763:`, `763-` (grep -n and its context lines), `path.py:763:` (grep -n over files), `   763\t` (cat -n, nl),
// `Line 763:` (an agent's script printing lines).
const LINE_NUMBER = /^\s*(?:[^\s:]+:|[Ll]ine\s+)?\d+(?::|-|\t)/;

/**
 * An output line without the line number `grep -n`, `cat -n` or `nl` put before the code
 * (normalised), or the line itself when it has none: the code line a later edit names.
 */
export function codeLineOf(raw: string): string {
  return normaliseLine(raw.replace(LINE_NUMBER, ''));
}

/** Probes `available` in a compacted text: how many it still holds, and the first few it lost. */
export interface LineRetention {
  readonly available: number;
  readonly retained: number;
  readonly lost: readonly string[];
}

export function measureLines(probes: readonly string[], compacted: string): LineRetention {
  const lost = probes.filter((probe) => !holdsLine(compacted, probe));
  return { available: probes.length, retained: probes.length - lost.length, lost };
}
