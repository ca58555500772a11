import { createHash } from 'node:crypto';
import type { Message } from '../messages/message.js';
import { CANONICAL_FORM_VERSION, canonicalMessage } from './canonical-form.js';

/**
 * sha256 (lowercase hex) of `ollm-canonical-v1\n` followed by each message's canonical form,
 * each terminated by `\n`, as UTF-8. See docs/source-digest.md for how to recompute it.
 */
export function computeSourceDigest(messages: readonly Message[]): string {
  const hash = createHash('sha256');
  hash.update(`${CANONICAL_FORM_VERSION}\n`);
  for (const message of messages) hash.update(canonicalLine(message));
  return hash.digest('hex');
}

// Every compaction digests its whole input, and a pipeline digests each stage's input again, while
// almost all of those messages were digested before. Messages are immutable values (a provider that
// edits one returns a new object), so the canonical form is cached by object, as token counts are;
// the cache holds only messages still alive, i.e. about one copy of the active context.
const canonicalLines = new WeakMap<Message, string>();

/** `canonicalMessage(message)` and its terminating newline, computed once per message object. */
function canonicalLine(message: Message): string {
  let line = canonicalLines.get(message);
  if (line === undefined) {
    line = `${canonicalMessage(message)}\n`;
    canonicalLines.set(message, line);
  }
  return line;
}

export function sha256Hex(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
