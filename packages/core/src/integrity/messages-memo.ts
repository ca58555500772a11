import type { Message } from '../messages/message.js';

/**
 * `compute` remembered per message array while the array still holds the same message objects,
 * element by element (messages are immutable values, so a result read from them holds as long
 * as they are the same objects; an array changed in place, a message pushed or replaced, is
 * read again). Validation reads each array twice in a pipeline (a stage's output is the next
 * stage's input) and the conversation itself on every compaction. Nothing is kept past the array.
 */
export function messagesMemo<T>(compute: (messages: readonly Message[]) => T): (messages: readonly Message[]) => T {
  const known = new WeakMap<readonly Message[], { readonly elements: readonly Message[]; readonly value: T }>();
  return (messages) => {
    const entry = known.get(messages);
    if (entry !== undefined && sameMessageObjects(entry.elements, messages)) return entry.value;
    const value = compute(messages);
    known.set(messages, { elements: [...messages], value });
    return value;
  };
}

/** Whether two arrays hold the same message objects, in the same order (what a result read from messages depends on). */
export function sameMessageObjects(a: readonly Message[], b: readonly Message[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}
