import { randomUUID } from 'node:crypto';

/** A new unique message id for messages created at run time (transcript readers derive theirs). */
export function createMessageId(prefix = 'msg'): string {
  return `${prefix}_${randomUUID()}`;
}
