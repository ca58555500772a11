import type { Message } from '@ollm/core';
import { counterFor, type Strategy } from '../strategies.js';

/**
 * The chat recency baseline: the system message(s) and the first user message, then the newest
 * messages that fit `limit` (a contiguous tail, newest first, stopping at the first that does not
 * fit). The SWE-agent baseline's "every user message" rule does not suit a chat, where user
 * messages are half of it. Never over `limit`: kept messages are added only while they fit, so a
 * limit below the system message yields an empty context.
 */
export function keepRecent(messages: readonly Message[], limit: number, count: (message: Message) => number): Message[] {
  const firstUser = messages.findIndex((message) => message.role === 'user');
  const head = messages.flatMap((message, index) => (message.role === 'system' || index === firstUser ? [index] : []));
  const kept = new Set<number>();
  let used = 0;
  for (const index of head) {
    const tokens = count(messages[index]!);
    if (used + tokens > limit) break;
    kept.add(index);
    used += tokens;
  }
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    if (kept.has(index)) continue;
    const tokens = count(messages[index]!);
    if (used + tokens > limit) break;
    kept.add(index);
    used += tokens;
  }
  return messages.filter((_, index) => kept.has(index));
}

export const recencyStrategy: Strategy = {
  name: 'recency',
  family: 'baseline',
  hasTokenTarget: true,
  prepare(messages) {
    let output: readonly Message[] = messages;
    return {
      arm(limit, warm) {
        const counter = counterFor(messages, warm);
        return async () => {
          output = keepRecent(messages, limit, (message) => counter.countMessage(message));
        };
      },
      output: () => output,
      error: () => undefined,
    };
  },
};
