import { givenTokens, isFoldableUserTurn, userTurnsMayFold, type Message, type TokenCounting } from '@ollm/core';

export interface UserFoldPlan {
  /** Positions of the user messages to fold, oldest first. */
  readonly positions: number[];
  readonly userTokens: number;
  readonly share: number;
}

/**
 * The long-chat rule of core (`userTurnsMayFold`, docs/decisions/0002-folding-user-turns.md), as
 * goal-aware applies it: when the system and user messages alone take over `userShare` of the
 * budget (half by default), the oldest foldable user turns older than the recent window
 * (`isFoldableUserTurn`: not the task, not the last, not pinned, no tool results — Anthropic puts
 * results in user messages; folding one would orphan its call) are folded into the checkpoint as
 * quotes, oldest first, until the rest are within that share.
 */
export function planUserFolds(
  messages: readonly Message[],
  recentStart: number,
  limit: number | undefined,
  userShare: number,
  tokens: TokenCounting,
): UserFoldPlan {
  const given = givenTokens(messages, tokens);
  let userTokens = 0;
  for (const message of messages) if (message.role === 'user') userTokens += tokens.countMessage(message);
  const share = limit === undefined ? Number.POSITIVE_INFINITY : Math.floor(limit * userShare);
  const positions: number[] = [];
  if (!userTurnsMayFold(messages, limit, tokens, userShare)) return { positions, userTokens, share };
  let remaining = given;
  for (let position = 0; position < recentStart && remaining > share; position += 1) {
    if (!isFoldableUserTurn(messages, position)) continue;
    positions.push(position);
    remaining -= tokens.countMessage(messages[position]!);
  }
  return { positions, userTokens, share };
}
