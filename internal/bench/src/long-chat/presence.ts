import { partText, type Message } from '@ollm/core';

/** Whitespace runs collapsed to one space, ends trimmed. */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** An answer as it is searched for: lowercase, whitespace collapsed, trailing punctuation stripped. */
export function normaliseAnswer(answer: string): string {
  return collapseWhitespace(answer.toLowerCase())
    .replace(/[\p{P}\s]+$/u, '')
    .trim();
}

// Messages are joined with a character whitespace collapsing keeps, so no match spans two messages.
const SEPARATOR = '\u0000';

/** The text a compacted context holds, searchable for evidence (case kept) and answers (lowercase). */
export interface ContextText {
  /** Every part of every message (all roles), whitespace collapsed per message. */
  readonly verbatim: string;
  /** The same, lowercased. */
  readonly lower: string;
}

export function contextText(messages: readonly Message[]): ContextText {
  const verbatim = messages.map((message) => collapseWhitespace(message.parts.map(partText).join('\n'))).join(SEPARATOR);
  return { verbatim, lower: verbatim.toLowerCase() };
}

/** Whether `turnText` (whitespace collapsed) is in the context verbatim. An empty turn counts as absent. */
export function turnPresent(context: ContextText, turnText: string): boolean {
  const needle = collapseWhitespace(turnText);
  return needle !== '' && context.verbatim.includes(needle);
}

/** The share of `evidence` turns present verbatim; undefined for no evidence. */
export function evidenceShare(context: ContextText, evidence: readonly string[], turns: ReadonlyMap<string, string>): number | undefined {
  if (evidence.length === 0) return undefined;
  const present = evidence.filter((id) => turnPresent(context, turns.get(id) ?? '')).length;
  return present / evidence.length;
}

/** Whether the normalised answer is a substring of the context (lowercased). An empty answer counts as absent. */
export function answerPresent(context: ContextText, answer: string): boolean {
  const needle = normaliseAnswer(answer);
  return needle !== '' && context.lower.includes(needle);
}
