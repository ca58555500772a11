import type { Message, TokenCounter } from '@ollm/core';
import { counterFor, type Strategy } from '../strategies.js';
import { extractIdentifiers, holdsIdentifier } from './identifiers.js';
import { searchableText } from './searchable-parts.js';

/** What a baseline kept of the messages, and what it dropped (both in the input's order). */
export interface RecencySelection {
  readonly kept: readonly Message[];
  readonly dropped: readonly Message[];
  /** countMessages(kept), as the bench counts tokensAfter. */
  readonly tokens: number;
}

const isFixed = (message: Message) => message.role === 'system' || message.role === 'user';

/**
 * The messages other than system and user ones, as units kept or dropped whole: an assistant
 * message with the tool messages right after it (its results: a step is atomic), or a message
 * alone (a tool message that follows no assistant message).
 */
export function recencyUnits(messages: readonly Message[]): number[][] {
  const units: number[][] = [];
  for (let index = 0; index < messages.length; index += 1) {
    const message = messages[index]!;
    if (isFixed(message)) continue;
    const unit = [index];
    if (message.role === 'assistant') while (index + 1 < messages.length && messages[index + 1]!.role === 'tool') unit.push((index += 1));
    units.push(unit);
  }
  return units;
}

/**
 * The recency baseline's selection: every system and user message, then the newest units
 * (recencyUnits) that fit `limit` with them, newest first, stopping at the first that does not
 * (a contiguous tail), in the input's order. Over the limit only when the system and user
 * messages alone are.
 */
export function selectRecent(messages: readonly Message[], limit: number, counter: TokenCounter): RecencySelection {
  let tokens = messages.filter(isFixed).reduce((sum, message) => sum + counter.countMessage(message), 0);
  const keep = new Set<number>();
  const units = recencyUnits(messages);
  for (let unit = units.length - 1; unit >= 0; unit -= 1) {
    const cost = units[unit]!.reduce((sum, index) => sum + counter.countMessage(messages[index]!), 0);
    if (tokens + cost > limit) break;
    tokens += cost;
    for (const index of units[unit]!) keep.add(index);
  }
  const kept = messages.filter((message, index) => isFixed(message) || keep.has(index));
  const dropped = messages.filter((message, index) => !isFixed(message) && !keep.has(index));
  return { kept, dropped, tokens };
}

/** The names-list baseline's note: `names seen: a, b, c`. */
export function namesNote(names: readonly string[]): Message {
  return { id: 'names-seen', role: 'assistant', parts: [{ type: 'text', text: `names seen: ${names.join(', ')}` }] };
}

/**
 * The names-list baseline: the recency selection in half the limit, and in the place of the
 * dropped messages (right after the system and user messages before them) one assistant message
 * listing the names (`context.names`, else every identifier) the dropped messages held, as many
 * of them, in order, as fit the limit with the rest. It keeps no fact, only names: a measure it
 * does well on rewards listing names, not keeping what the later steps need.
 */
export function namesList(messages: readonly Message[], limit: number, counter: TokenCounter, names?: readonly string[]): readonly Message[] {
  const selection = selectRecent(messages, Math.floor(limit / 2), counter);
  if (selection.dropped.length === 0) return selection.kept;
  const droppedText = searchableText(selection.dropped);
  const candidates = names ?? extractIdentifiers(droppedText).map((identifier) => identifier.text);
  const held = [...new Set(candidates)].filter((name) => holdsIdentifier(droppedText, name));
  // The longest prefix of `held` whose note fits beside the selection (the note grows with each name).
  const fits = (count: number) => selection.tokens + counter.countMessage(namesNote(held.slice(0, count))) <= limit;
  let low = 0;
  let high = held.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(middle)) low = middle;
    else high = middle - 1;
  }
  if (low === 0) return selection.kept;
  const note = namesNote(held.slice(0, low));
  const firstDropped = messages.indexOf(selection.dropped[0]!);
  const kept = new Set(selection.kept);
  const output: Message[] = [];
  for (const [index, message] of messages.entries()) {
    if (index === firstDropped) output.push(note);
    if (kept.has(message)) output.push(message);
  }
  return output;
}

function baseline(
  name: string,
  compact: (messages: readonly Message[], limit: number, counter: TokenCounter, names?: readonly string[]) => readonly Message[],
): Strategy {
  return {
    name,
    family: 'baseline',
    hasTokenTarget: true,
    prepare(messages, context) {
      let output: readonly Message[] = messages;
      return {
        arm(limit, warm) {
          const counter = counterFor(messages, warm);
          return async () => {
            output = compact(messages, limit, counter, context?.names);
          };
        },
        output: () => output,
        error: () => undefined,
      };
    },
  };
}

/** Recency: system + user messages + the newest steps that fit (selectRecent). */
export const recencyStrategy: Strategy = baseline('recency', (messages, limit, counter) => selectRecent(messages, limit, counter).kept);

/** Names-list: recency in half the limit + a list of the names it dropped (namesList). */
export const namesListStrategy: Strategy = baseline('names-list', namesList);
