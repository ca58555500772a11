import type { Message } from '@ollm/core';
import { argumentStrings } from '../identifiers/visible-text.js';
import { extractIdentifiers } from '../identifiers/extract-identifiers.js';
import { normalizeLine } from '../lines/line-kinds.js';
import { sourcesOf, type LineSource, type SourceLine } from '../lines/source-lines.js';
import { nameWeight, type ConversationNames } from '../names/conversation-names.js';

/** A line a compaction may keep verbatim, with what keeping it is worth. */
export interface Candidate {
  readonly source: LineSource;
  readonly line: SourceLine;
  readonly value: number;
}

/** Any line with some text in it is worth a little: room left over at a loose budget goes to the newest such lines. */
const BASE_VALUE = 0.05;
const LEFTOVER_VALUE = 1e-6;
const ERROR_VALUE = 4;
const TEST_VALUE = 4;
const FRAME_VALUE = 1.5;
const QUOTED_VALUE = 2.5;
const VIEW_VALUE = 3;
const REPEAT_VALUE = 3;
/** Prose of the agent's own is worth less than what its tools showed: it restates, the tools are the facts. */
const PROSE_SHARE = 0.2;
const QUOTE_MINIMUM = 15;
const NEIGHBOUR_LINES = 3;
const NEIGHBOUR_SHARE = 0.5;

/**
 * What the worth of lines reads of the whole conversation, whatever the window: read once per
 * compaction and shared by its every attempt.
 */
export interface LineContext {
  /** The paths each call names, by call id. */
  readonly byCall: ReadonlyMap<string, readonly string[]>;
  /** Where each path was last named by a call of the agent's. */
  readonly lastCalled: ReadonlyMap<string, number>;
  /** Lines the agent wrote itself, normalised. */
  readonly quoted: ReadonlySet<string>;
  /** The line sources of the message at `position` (read once, the same objects every time). */
  sourcesAt(position: number): readonly LineSource[];
}

/** The context of `messages`; `chat`: prose is read by sentence (long chats). */
export function lineContext(messages: readonly Message[], chat: boolean): LineContext {
  const { byCall, lastCalled } = callPaths(messages);
  const sources = new Map<number, LineSource[]>();
  return {
    byCall,
    lastCalled,
    quoted: agentLines(messages),
    sourcesAt(position) {
      let found = sources.get(position);
      if (!found) sources.set(position, (found = sourcesOf(messages[position]!, position, chat)));
      return found;
    },
  };
}

export interface ValueInputs {
  readonly messages: readonly Message[];
  readonly names: ConversationNames;
  readonly context: LineContext;
  /** The line sources of the folded and reduced messages: the candidates. */
  readonly sources: readonly LineSource[];
  /** True for a message kept whole (fixed, or in the recent window): its lines are in view. */
  readonly visible: (position: number) => boolean;
  /** Long chats: prose is the content, valued by its words. */
  readonly chat: boolean;
}

/** The paths each call names, and where each path was last named by a call of the agent's. */
function callPaths(messages: readonly Message[]): { byCall: Map<string, string[]>; lastCalled: Map<string, number> } {
  const byCall = new Map<string, string[]>();
  const lastCalled = new Map<string, number>();
  messages.forEach((message, position) => {
    if (message.role !== 'assistant') return;
    for (const part of message.parts) {
      if (part.type !== 'tool-call') continue;
      const strings: string[] = [];
      argumentStrings(part.input ?? part.rawInput, strings);
      const paths = [...extractIdentifiers(strings.join('\n'))].filter(([, kind]) => kind === 'path').map(([name]) => name);
      byCall.set(part.callId, paths);
      for (const path of paths) lastCalled.set(path, position);
    }
  });
  return { byCall, lastCalled };
}

/** Lines the agent wrote itself (prose, call arguments), normalised: a line of output it quoted is one it works on. */
function agentLines(messages: readonly Message[]): Set<string> {
  const lines = new Set<string>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const part of message.parts) {
      const strings: string[] = [];
      if (part.type === 'text') strings.push(part.text);
      else if (part.type === 'tool-call') argumentStrings(part.input ?? part.rawInput, strings);
      for (const text of strings) {
        for (const line of text.split(/\n|\\n/)) {
          const normalized = normalizeLine(line);
          if (normalized.length >= QUOTE_MINIMUM) lines.add(normalized);
        }
      }
    }
  }
  return lines;
}

const STOP_WORDS = new Set(
  "the and for are but not you your with that this was were have has had our out all any can her his him she they them their what when which who will would just like from been about also really some than then there these those very into its it's i'm that's don't too much more great good glad thanks thank yeah wow sounds awesome amazing".split(
    ' ',
  ),
);

/** Words of a chat sentence that carry content, lowercased. */
function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9][a-z0-9']{2,}/g) ?? []).filter((word) => !STOP_WORDS.has(word));
}

/** What a chat sentence tells: its rarer words, numbers and proper names. */
function chatValues(sources: readonly LineSource[]): Map<SourceLine, number> {
  const documents = new Map<string, number>();
  for (const source of sources)
    for (const word of new Set(source.lines.flatMap((line) => contentWords(line.text)))) documents.set(word, (documents.get(word) ?? 0) + 1);
  const total = Math.max(1, sources.length);
  const values = new Map<SourceLine, number>();
  for (const source of sources) {
    for (const line of source.lines) {
      let value = 0;
      for (const word of new Set(contentWords(line.text))) value += Math.log((1 + total) / (documents.get(word) ?? 1));
      const proper = line.text.match(/(?<=\S\s+)[A-Z][a-z]+/g)?.length ?? 0;
      const numbers = line.text.match(/\d+/g)?.length ?? 0;
      values.set(line, 0.2 * value + 0.8 * proper + 0.8 * numbers);
    }
  }
  return values;
}

/**
 * The worth of every candidate line, read newest first: the newest fact line (<= 240 characters,
 * more than names) that holds a name carries that name's weight, and older lines holding it only
 * what else they hold; an exception, a test summary, a frame of an output's last traceback, a
 * line the agent quoted afterwards and a line of the latest view of a file the agent works on
 * are worth more; a line shown again later (or still in view) is worth nothing where it was
 * shown before.
 */
export function candidateValues(inputs: ValueInputs): Candidate[] {
  const { messages, names, visible } = inputs;
  const count = messages.length;
  const covered = new Set<string>();
  const seen = new Set<string>();
  const { byCall, lastCalled, quoted } = inputs.context;
  // How often each line was shown: a line the agent looked at again and again is one it works on.
  const shown = new Map<string, number>();
  for (const source of inputs.sources)
    for (const line of source.lines) if (source.origin === 'tool-result') shown.set(line.normalized, (shown.get(line.normalized) ?? 0) + 1);
  const chat = inputs.chat ? chatValues(inputs.sources.filter((source) => source.origin === 'text')) : undefined;
  // Visible messages' tool outputs: their names and lines are in view whatever is chosen.
  messages.forEach((_, position) => {
    if (!visible(position)) return;
    for (const source of inputs.context.sourcesAt(position)) {
      if (source.origin !== 'tool-result') continue;
      for (const line of source.lines) {
        seen.add(line.normalized);
        if (shown.has(line.normalized)) shown.set(line.normalized, shown.get(line.normalized)! + 1);
        if (line.normalized.length <= 240) for (const name of line.names) covered.add(name);
      }
    }
  });

  const candidates: Candidate[] = [];
  const newestFirst = [...inputs.sources].sort((a, b) => b.message - a.message || b.part - a.part);
  let newestTraceback = true;
  const viewed = new Set<string>();
  for (const source of newestFirst) {
    const message = messages[source.message]!;
    const part = message.parts[source.part]!;
    // Only the newest output a call about a file showed counts as that file's view.
    const files = (part.type === 'tool-result' ? (byCall.get(part.callId) ?? []) : []).filter((file) => !viewed.has(file));
    for (const file of files) viewed.add(file);
    const view = files.reduce((best, file) => Math.max(best, ((lastCalled.get(file) ?? 0) + 1) / count), 0);
    const lastFrame = source.lines.reduce((last, line) => (line.kind === 'frame' ? line.index : last), -1);
    const firstFrame = lastFrame === -1 ? -1 : lastTracebackStart(source.lines, lastFrame);
    for (let at = source.lines.length - 1; at >= 0; at--) {
      const line = source.lines[at]!;
      if (seen.has(line.normalized)) {
        // Shown again later or still in view: only room nothing else wants is given to it.
        candidates.push({ source, line, value: LEFTOVER_VALUE / 2 });
        continue;
      }
      seen.add(line.normalized);
      let value = BASE_VALUE;
      if (source.origin === 'text') {
        value += chat?.get(line) ?? 0;
        for (const name of line.names) value += PROSE_SHARE * nameWeight(names.stats.get(name)!, count);
      } else {
        // A line whose every name a newer line already shows tells nothing new (an older value, a line superseded).
        let fresh = line.names.length === 0;
        for (const name of line.names) {
          const stats = names.stats.get(name);
          if (!stats || covered.has(name)) continue;
          fresh = true;
          if (line.isFact) {
            value += nameWeight(stats, count);
            covered.add(name);
          } else value += 0.1 * nameWeight(stats, count);
        }
        if (!fresh) value -= BASE_VALUE;
        if (line.kind === 'error') value += ERROR_VALUE;
        else if (line.kind === 'test') value += TEST_VALUE;
        else if (line.kind === 'frame' && line.index >= firstFrame) value += FRAME_VALUE * (newestTraceback ? 2 : 1);
        if (line.normalized.length >= QUOTE_MINIMUM) {
          if (quoted.has(line.normalized)) value += QUOTED_VALUE;
          value += VIEW_VALUE * view * view + REPEAT_VALUE * Math.log2(shown.get(line.normalized) ?? 1);
        }
      }
      // Worth nothing new is still worth its room when nothing else is left (a looser limit never keeps less).
      candidates.push({ source, line, value: Math.max(value, LEFTOVER_VALUE) });
    }
    if (lastFrame !== -1) newestTraceback = false;
  }
  return withNeighbours(candidates);
}

/** Lines next to a line worth keeping share a little of its worth: an edit changes the lines around what the agent looked for. */
function withNeighbours(candidates: readonly Candidate[]): Candidate[] {
  const bySource = new Map<LineSource, Candidate[]>();
  for (const candidate of candidates) {
    if (candidate.source.origin !== 'tool-result') continue;
    const list = bySource.get(candidate.source) ?? [];
    list.push(candidate);
    bySource.set(candidate.source, list);
  }
  const bonus = new Map<Candidate, number>();
  for (const list of bySource.values()) {
    list.sort((a, b) => a.line.index - b.line.index);
    for (let at = 0; at < list.length; at++) {
      let best = 0;
      for (let other = Math.max(0, at - NEIGHBOUR_LINES); other <= Math.min(list.length - 1, at + NEIGHBOUR_LINES); other++) {
        if (other !== at && Math.abs(list[other]!.line.index - list[at]!.line.index) <= NEIGHBOUR_LINES) best = Math.max(best, list[other]!.value);
      }
      if (best > 0 && list[at]!.line.normalized.length >= QUOTE_MINIMUM) bonus.set(list[at]!, NEIGHBOUR_SHARE * best);
    }
  }
  return candidates.map((candidate) => (bonus.has(candidate) ? { ...candidate, value: candidate.value + bonus.get(candidate)! } : candidate));
}

/** Index of the first frame of the traceback whose last frame is at `last` (frames with at most two lines between them). */
function lastTracebackStart(lines: readonly SourceLine[], last: number): number {
  let start = last;
  for (const line of lines) {
    if (line.index >= last) break;
    if (line.kind === 'frame' && last - line.index < 200) {
      start = Math.min(start, line.index);
    }
  }
  // Only the frames of the last "Traceback" block: one starting after the previous block's exception line.
  let block = start;
  for (const line of lines) {
    if (line.index > last) break;
    if (line.normalized.startsWith('Traceback (most recent call last)')) block = line.index;
  }
  return Math.max(start, block);
}
