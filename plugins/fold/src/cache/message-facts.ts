import type { Message } from '@ollm/core';
import { extractIdentifiers, type IdentifierKind } from '../identifiers/extract-identifiers.js';
import { visibleText } from '../identifiers/visible-text.js';
import { cachedFacts, foldCaches, rememberFacts } from './fold-caches.js';
import { sameJson } from './same-json.js';

/** What fold derives from one message's content alone, whatever conversation it is in. */
export interface MessageFacts {
  /** Names these facts: two messages have the same key only when their JSON is the same. */
  readonly key: string;
  /** The message they were read from (the first of the equal ones seen). */
  readonly message: Message;
  /** Characters its texts hold: what its cached forms take, about. */
  readonly size: number;
  /**
   * The message as an element of a saved form (`JSON.stringify(messages, null, 1)`): a space, then
   * its JSON with one-space indentation and each line after the first indented one space more.
   * Written on first read: most messages are never saved.
   */
  readonly element: string;
  /** The identifiers its visible text mentions, in order of appearance. */
  readonly names: ReadonlyMap<string, IdentifierKind>;
  /** Tokens of `element + ',\n'` (`middle`) and `element + '\n]'` (`last`), by counting identity. */
  readonly counts: Map<number, { middle?: number; last?: number }>;
}

let nextKey = 1;

/**
 * What equal messages share, cheap to compute: the id, the role, and each part's kind and the
 * lengths of its texts. Messages with the same outline are compared whole before their facts are shared.
 */
function outline(message: Message): string {
  let text = `${message.id}\u0000${message.role}\u0000${message.timestamp ?? ''}\u0000${message.name ?? ''}\u0000${message.pinned === true}`;
  for (const part of message.parts) {
    switch (part.type) {
      case 'text':
      case 'reasoning':
        text += `\u0000${part.type}${part.text.length}`;
        break;
      case 'tool-result':
        text += `\u0000r${part.callId}${part.output.length}`;
        break;
      case 'tool-call':
        text += `\u0000c${part.callId}${part.name}${part.rawInput?.length ?? -1}`;
        break;
      default:
        text += `\u0000${part.type}`;
    }
  }
  return text;
}

function factsOf(message: Message): MessageFacts {
  let element: string | undefined;
  const names = extractIdentifiers(visibleText(message));
  let size = 0;
  for (const part of message.parts)
    size += part.type === 'text' || part.type === 'reasoning' ? part.text.length : part.type === 'tool-result' ? part.output.length : 64;
  return {
    key: `m${nextKey++}`,
    message,
    size,
    names,
    counts: new Map(),
    get element(): string {
      return (element ??= ` ${JSON.stringify(message, null, 1).replaceAll('\n', '\n ')}`);
    },
  };
}

/**
 * The facts of `message`: by object when seen before; else those of an equal message seen before
 * (an equal copy parsed afresh: same outline, then the same JSON); else read now.
 */
export function messageFacts(message: Message): MessageFacts {
  const known = cachedFacts(message);
  if (known !== undefined) return known;
  const key = outline(message);
  const candidates = foldCaches.messages.get(key);
  let facts = candidates?.find((candidate) => sameJson(candidate.message, message));
  if (facts === undefined) {
    facts = factsOf(message);
    let nameBytes = 0;
    for (const name of facts.names.keys()) nameBytes += name.length + 16;
    // The element, once written, is about as long as the texts; the message itself is the caller's.
    foldCaches.messages.set(key, [...(candidates ?? []), facts], key.length + facts.size * 2 + nameBytes + 256);
  }
  rememberFacts(message, facts);
  return facts;
}
