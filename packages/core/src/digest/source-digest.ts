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
  for (const message of messages) hash.update(`${canonicalMessage(message)}\n`);
  return hash.digest('hex');
}

export function sha256Hex(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}
