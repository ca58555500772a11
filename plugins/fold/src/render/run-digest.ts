import { sha256Hex, type Message } from '@ollm/core';
import { referenceTag } from '../plan/folded-piece.js';
import type { Candidate } from '../plan/line-values.js';
import { callFor, callLabel, exitStatus } from './call-label.js';

/** What a run digest shows of one source: its header and the lines kept, in their order. */
export interface SourceExcerpt {
  readonly header: string;
  readonly lines: readonly string[];
  /** Chat prose: the sentences on the header's line. */
  readonly inline: boolean;
}

/**
 * The header a source's kept lines stand under: `$ command [exit 1] [ollm fold <reference of the
 * output>]`, or who said it; for a tool output, the output and the sha256 its reference shows.
 */
export function sourceHeader(
  messages: readonly Message[],
  candidate: Candidate,
  characters: number,
): { text: string; inline: boolean; output?: { readonly text: string; readonly sha256: string } } {
  const { source } = candidate;
  const message = messages[source.message]!;
  if (source.origin === 'text') return { text: `${message.name ?? message.role}:`, inline: true };
  const part = message.parts[source.part]!;
  if (part.type !== 'tool-result') return { text: '$', inline: false };
  const call = callFor(messages, source.message, part.callId);
  const status = exitStatus(part.output);
  const sha256 = sha256Hex(part.output);
  return {
    text: `$ ${call ? callLabel(call, characters) : (part.name ?? 'tool')}${status !== undefined && status !== 0 ? ` [exit ${status}]` : ''} ${referenceTag(sha256)}`,
    inline: false,
    output: { text: part.output, sha256 },
  };
}

/** The lines of a digest for `excerpts`: each header, then its lines (chat prose on the header's line). */
export function excerptLines(excerpts: readonly SourceExcerpt[]): string[] {
  return excerpts.flatMap((excerpt) => (excerpt.inline ? [`${excerpt.header} ${excerpt.lines.join(' ')}`] : [excerpt.header, ...excerpt.lines]));
}

/** What ends a run's description when lines follow it. */
export const LINES_FOLLOW = '; lines they showed, verbatim:';

/** A run's head line as the digest writes it: without the promise of lines when none are kept. */
export function headFor(head: string, linesKept: boolean): string {
  return linesKept || !head.endsWith(LINES_FOLLOW) ? head : head.slice(0, -LINES_FOLLOW.length);
}

/** How a run is described: `38 earlier steps folded (bash ×38)`, with the user messages it holds when the long-chat rule folded some. */
export function runSummary(messages: readonly Message[], positions: readonly number[], chat: boolean): string {
  const tools = new Map<string, number>();
  let steps = 0;
  let users = 0;
  for (const position of positions) {
    const message = messages[position]!;
    if (message.role === 'user') users += 1;
    if (message.role !== 'assistant') continue;
    steps += 1;
    for (const part of message.parts) if (part.type === 'tool-call') tools.set(part.name, (tools.get(part.name) ?? 0) + 1);
  }
  if (chat && tools.size === 0) return `${positions.length} earlier messages folded`;
  const counts = [...tools].sort((a, b) => b[1] - a[1]).slice(0, 4);
  const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;
  return `${plural(steps, 'earlier step')}${users > 0 ? ` and ${plural(users, 'user message')}` : ''} folded${counts.length > 0 ? ` (${counts.map(([name, n]) => `${name} ×${n}`).join(', ')})` : ''}${LINES_FOLLOW}`;
}
