import { createHash } from 'node:crypto';
import { messageKey } from './message-key.js';

/** Versioned, so a change in how keys are made never reads an older proxy's entries. */
export const PREFIX_KEY_VERSION = 'ollm-serve-prefix-v2';

/**
 * The cache key of every prefix of a conversation: `keys[i]` stands for the first `i + 1` wire
 * messages, under `scope` (what else decides a compaction: API, model, pipeline, budget). A chain
 * of sha256s, each over the previous key and one message's JSON, so computing all of them reads
 * each message once, and two requests share a key exactly when they share the scope and every
 * message of that prefix, byte for byte as JSON (`cache_control` aside: see messageKey). No session id is needed: the messages are the
 * conversation's identity.
 */
export function prefixKeys(scope: string, messages: readonly unknown[]): string[] {
  let previous = createHash('sha256').update(`${PREFIX_KEY_VERSION}\n${scope}`).digest('hex');
  const keys: string[] = [];
  for (const message of messages) {
    previous = createHash('sha256').update(previous).update('\n').update(messageKey(message)).digest('hex');
    keys.push(previous);
  }
  return keys;
}
