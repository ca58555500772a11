import type { Message } from '../messages/message.js';
import { turnOf } from '../integrity/message-shape.js';
import type { TokenCounting } from '../tokens/token-counting.js';

/**
 * The long-chat rule (docs/decisions/0002-folding-user-turns.md), one for every provider that
 * folds user turns (fold, goal-aware): user messages are kept whole unless the system and user
 * messages alone take over this share of the budget. Then user turns other than the first (the
 * task), the last (the newest instruction, or one waiting for its reply), pinned ones and ones that
 * carry tool results may be folded, declared in the result's `folded`.
 */
export const USER_TURN_SHARE = 0.5;

/** Tokens of the system and user messages: what a compaction keeps whole unless the rule applies. */
export function givenTokens(messages: readonly Message[], tokens: TokenCounting): number {
  let given = 0;
  for (const message of messages) if (message.role === 'system' || message.role === 'user') given += tokens.countMessage(message);
  return given;
}

/** True when the system and user messages take over `share` of `limit`: older user turns may then be folded. */
export function userTurnsMayFold(messages: readonly Message[], limit: number | undefined, tokens: TokenCounting, share: number = USER_TURN_SHARE): boolean {
  return limit !== undefined && givenTokens(messages, tokens) > limit * share;
}

/**
 * Whether the user message at `position` may be folded under the rule: a user turn, not the first
 * nor the last user turn, not pinned, and carrying no tool result (folding one would orphan its call).
 */
export function isFoldableUserTurn(messages: readonly Message[], position: number): boolean {
  const message = messages[position];
  if (message === undefined || message.role !== 'user' || message.pinned === true) return false;
  if (message.parts.some((part) => part.type === 'tool-result')) return false;
  const first = messages.findIndex((candidate) => turnOf(candidate) === 'user');
  const last = messages.findLastIndex((candidate) => turnOf(candidate) === 'user');
  return position !== first && position !== last;
}
