import { tokenPrefix } from '../host/fit-to-tokens.js';
import type { TokenCounting } from '../tokens/token-counting.js';

/** Quote lines chosen to fit a budget: the first, the newest after it, and how many were left out between. */
export interface FittedQuoteLines {
  /** The first line (the task, usually), cut with ` …` when it alone is too long; undefined when not even a short cut fits. */
  readonly first: string | undefined;
  readonly newest: readonly string[];
  readonly between: number;
}

/**
 * The quotes of folded user messages within `budget` tokens (after `reserved` for a title and a
 * count line), as the runtime and goal-aware both keep them: the first line always, cut to fit,
 * then the newest lines that fit, so the first user turns never vanish and the rest is counted.
 */
export function fitQuoteLines(lines: readonly string[], budget: number, reserved: number, tokens: TokenCounting): FittedQuoteLines {
  const [head, ...rest] = lines;
  if (head === undefined) return { first: undefined, newest: [], between: 0 };
  let used = reserved;
  let first: string | undefined = head;
  if (used + tokens.countText(head) + 1 > budget) {
    const room = budget - used - 2;
    first = room < 8 ? undefined : `${tokenPrefix(head, room, tokens.tokenizer).trimEnd()} …`;
  }
  if (first === undefined) return { first, newest: [], between: rest.length };
  used += tokens.countText(first) + 1;
  const newest: string[] = [];
  for (const line of [...rest].reverse()) {
    const cost = tokens.countText(line) + 1;
    if (used + cost > budget) break;
    newest.unshift(line);
    used += cost;
  }
  return { first, newest, between: rest.length - newest.length };
}
