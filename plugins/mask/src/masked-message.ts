import { withParts, type Message, type MessagePart } from '@ollm/core';

const masked = new WeakMap<Message, { readonly parts: readonly MessagePart[]; readonly message: Message }>();

/**
 * `message` with `parts`: the object made for the same message with the same parts last time
 * when there is one, else a new one. Masking an unchanged conversation again then gives the same
 * message objects, so what later stages and the host remember by object (token counts, canonical
 * forms, code-aware's line references) still holds.
 */
export function maskedMessage(message: Message, parts: readonly MessagePart[]): Message {
  const known = masked.get(message);
  if (known !== undefined && known.parts.length === parts.length && known.parts.every((part, index) => sameFields(part, parts[index]!))) {
    return known.message;
  }
  const made = withParts(message, [...parts]);
  masked.set(message, { parts, message: made });
  return made;
}

/** The same part object, or one with the same own fields holding identical values (a placeholder made again). */
function sameFields(a: MessagePart, b: MessagePart): boolean {
  if (a === b) return true;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => (a as unknown as Record<string, unknown>)[key] === (b as unknown as Record<string, unknown>)[key]);
}
