import { messageKey } from './message-key.js';

/**
 * How many of a compaction's first messages are the conversation's own, as the client sent them,
 * up to its first user message (the task): the system prompt and the task, which no compaction
 * changes. A compaction of the messages after them starts with these too.
 */
export function leadingMessages(compacted: readonly unknown[], original: readonly unknown[]): number {
  let count = 0;
  while (count < compacted.length && count < original.length && messageKey(compacted[count]) === messageKey(original[count])) {
    count += 1;
    if ((compacted[count - 1] as { role?: unknown } | null)?.role === 'user') break;
  }
  return count;
}

/**
 * Where the verbatim end of a compaction starts: its last messages that are the conversation's own
 * newest messages, unchanged (`covered` of `original` are what it stands for). Its length when it
 * kept none verbatim.
 */
export function verbatimStart(compacted: readonly unknown[], original: readonly unknown[], covered: number): number {
  let start = compacted.length;
  while (start > 0) {
    const at = covered - (compacted.length - start) - 1;
    if (at < 0 || messageKey(compacted[start - 1]) !== messageKey(original[at])) break;
    start -= 1;
  }
  return start;
}
