import type { Message } from '../messages/message.js';
import type { MessagePart } from '../messages/message-part.js';

/** Version tag that starts every canonical form; bumped if the form ever changes. */
export const CANONICAL_FORM_VERSION = 'ollm-canonical-v1';

/**
 * JSON with object keys sorted by UTF-16 code unit order, no whitespace, `undefined` members
 * omitted — the same as RFC 8785 for the values messages hold (strings, booleans, integers).
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return value === undefined ? 'null' : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(',')}}`;
}

function canonicalPart(part: MessagePart): unknown {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return { type: part.type, text: part.text };
    case 'tool-call':
      return { type: part.type, callId: part.callId, name: part.name, input: part.rawInput ?? canonicalJson(part.input ?? null) };
    case 'tool-result':
      return { type: part.type, callId: part.callId, name: part.name, output: part.output, isError: part.isError === true };
    case 'file':
      return { type: part.type, mediaType: part.mediaType, uri: part.uri, data: part.data, name: part.name };
  }
}

/**
 * The canonical form of one message: what the model sees (role, name, parts), plus pinned and
 * timestamp. Ids and format metadata are not part of it, so reading the same file twice, or the
 * same conversation from two formats that carry the same content, gives the same digest.
 */
export function canonicalMessage(message: Message): string {
  return canonicalJson({
    role: message.role,
    name: message.name,
    pinned: message.pinned === true,
    timestamp: message.timestamp,
    parts: message.parts.map(canonicalPart),
  });
}
