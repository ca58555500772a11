import { isCheckpointMessage, toolTurnGroups, type Message, type TokenCounting } from '@ollm/core';

export interface SpanSelection {
  /** Positions of the assistant / tool messages to summarise, ascending. */
  readonly span: readonly number[];
  /** First position of the recent window (kept verbatim). */
  readonly recentStart: number;
}

/**
 * Chooses what a compression summarises: assistant and tool messages older than the recent window
 * of `recentTokens`. A message stays when it is pinned or a checkpoint, or when anything in its
 * tool group is user, system, pinned or recent — so a call and its results go together or stay
 * together, and tool results carried in user messages (Anthropic) keep their calls.
 */
export function selectSpan(messages: readonly Message[], tokens: TokenCounting, recentTokens: number): SpanSelection {
  let recentStart = messages.length;
  let used = 0;
  while (recentStart > 0) {
    const cost = tokens.countMessage(messages[recentStart - 1]!);
    if (used + cost > recentTokens) break;
    used += cost;
    recentStart -= 1;
  }
  const groups = toolTurnGroups(messages);
  const summarisable = (index: number): boolean => {
    const message = messages[index]!;
    return index < recentStart && (message.role === 'assistant' || message.role === 'tool') && !message.pinned && !isCheckpointMessage(message);
  };
  const span: number[] = [];
  for (let index = 0; index < recentStart; index += 1) {
    if (groups[index]!.every(summarisable)) span.push(index);
  }
  return { span, recentStart };
}
