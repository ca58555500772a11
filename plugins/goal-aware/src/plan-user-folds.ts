import { turnOf, type Message, type TokenCounting } from '@ollm/core';

export interface UserFoldPlan {
  /** Positions of the user messages to fold, oldest first. */
  readonly positions: number[];
  readonly userTokens: number;
  readonly share: number;
}

/**
 * User messages are never compressed, but when they alone outgrow their share of
 * the budget (`userShare x limit`), the oldest are folded into the checkpoint as quotes. Only user
 * messages older than the recent window, not pinned and carrying no tool results (Anthropic puts
 * results in user messages; folding one would orphan its call) can be folded — and never the first
 * user turn (the task): without it the context would start with an assistant checkpoint, which the
 * Anthropic API and strict chat templates refuse.
 */
export function planUserFolds(
  messages: readonly Message[],
  recentStart: number,
  limit: number | undefined,
  userShare: number,
  tokens: TokenCounting,
): UserFoldPlan {
  let userTokens = 0;
  for (const message of messages) if (message.role === 'user') userTokens += tokens.countMessage(message);
  const share = limit === undefined ? Number.POSITIVE_INFINITY : Math.floor(limit * userShare);
  const positions: number[] = [];
  let remaining = userTokens;
  const task = messages.findIndex((message) => turnOf(message) === 'user');
  for (let position = task + 1; task !== -1 && position < recentStart && remaining > share; position += 1) {
    const message = messages[position]!;
    if (message.role !== 'user' || message.pinned || message.parts.some((part) => part.type === 'tool-result')) continue;
    positions.push(position);
    remaining -= tokens.countMessage(message);
  }
  return { positions, userTokens, share };
}
