import type { Message } from '../messages/message.js';
import type { MessagePart } from '../messages/message-part.js';

/** Version tag that starts every canonical form; bumped if the form ever changes. */
export const CANONICAL_FORM_VERSION = 'ollm-canonical-v1';

/**
 * JSON with object keys sorted by UTF-16 code unit order, no whitespace, `undefined` members
 * omitted — the same as RFC 8785 for the values messages hold (strings, booleans, integers).
 * Iterative: a value nested to any depth (a model's tool-call arguments, say) is written without
 * growing the call stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Open arrays and objects, innermost last: the values still to write and, for an object, their keys.
  const open: { readonly values: readonly unknown[]; readonly keys?: readonly string[]; next: number; readonly close: string }[] = [];
  const begin = (item: unknown, inArray: boolean): void => {
    if (item === null || typeof item !== 'object') {
      // As the recursive form wrote them: undefined is null; a value JSON cannot hold (a function) is
      // nothing in an array and `undefined` in an object.
      out.push(item === undefined ? 'null' : (JSON.stringify(item) ?? (inArray ? '' : 'undefined')));
      return;
    }
    if (Array.isArray(item)) {
      out.push('[');
      open.push({ values: item, next: 0, close: ']' });
      return;
    }
    const entries = Object.entries(item as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    out.push('{');
    open.push({ keys: entries.map(([key]) => key), values: entries.map(([, member]) => member), next: 0, close: '}' });
  };
  begin(value, false);
  while (open.length > 0) {
    const container = open.at(-1)!;
    if (container.next === container.values.length) {
      out.push(container.close);
      open.pop();
      continue;
    }
    const index = container.next;
    container.next += 1;
    if (index > 0) out.push(',');
    if (container.keys) out.push(`${JSON.stringify(container.keys[index])}:`);
    // A hole in a sparse array was written as nothing.
    if (!container.keys && !(index in container.values)) continue;
    begin(container.values[index], !container.keys);
  }
  return out.join('');
}

/** A part's fields in the canonical form (its `canonicalJson` is what the digest hashes). */
export function canonicalPart(part: MessagePart): unknown {
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
 * It is `canonicalJson` of that object; messages of the usual shape (string fields) are written
 * directly, keys already in order, which is several times faster than sorting each object's keys
 * (every compaction digests its whole input). Anything else goes through `canonicalJson`.
 */
export function canonicalMessage(message: Message): string {
  const { role, name, timestamp } = message;
  if (typeof role !== 'string' || !isOptionalString(name) || !isOptionalString(timestamp) || !Array.isArray(message.parts)) {
    return canonicalJson({ role, name, pinned: message.pinned === true, timestamp, parts: message.parts.map(canonicalPart) });
  }
  // Keys in UTF-16 order: name, parts, pinned, role, timestamp.
  let out = name === undefined ? '{"parts":[' : `{"name":${JSON.stringify(name)},"parts":[`;
  for (let index = 0; index < message.parts.length; index += 1) {
    if (index > 0) out += ',';
    out += canonicalPartJson(message.parts[index]!);
  }
  out += `],"pinned":${message.pinned === true},"role":${JSON.stringify(role)}`;
  if (timestamp !== undefined) out += `,"timestamp":${JSON.stringify(timestamp)}`;
  return `${out}}`;
}

function isOptionalString(value: unknown): value is string | undefined {
  return value === undefined || typeof value === 'string';
}

/** `canonicalJson(canonicalPart(part))`, written directly for text, reasoning, tool calls and results of string fields. */
function canonicalPartJson(part: MessagePart): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      if (typeof part.text === 'string') return `{"text":${JSON.stringify(part.text)},"type":"${part.type}"}`;
      break;
    case 'tool-call': {
      const input = part.rawInput ?? canonicalJson(part.input ?? null);
      if (isOptionalString(part.callId) && isOptionalString(part.name) && typeof input === 'string') {
        return `{${member('callId', part.callId)}"input":${JSON.stringify(input)},${member('name', part.name)}"type":"tool-call"}`;
      }
      break;
    }
    case 'tool-result':
      if (isOptionalString(part.callId) && isOptionalString(part.name) && isOptionalString(part.output)) {
        return `{${member('callId', part.callId)}"isError":${part.isError === true},${member('name', part.name)}${member('output', part.output)}"type":"tool-result"}`;
      }
      break;
  }
  return canonicalJson(canonicalPart(part));
}

/** `"key":"value",`, or nothing for an undefined value (an undefined member is left out). */
function member(key: string, value: string | undefined): string {
  return value === undefined ? '' : `"${key}":${JSON.stringify(value)},`;
}
