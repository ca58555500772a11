import { TokenCounter, createTokenizer, type Message } from '@ollm/core';

/**
 * `warm`: the contender's caches hold what a live session would have — every input message
 * counted when it arrived, and the same compaction run once before (ollm's own caches, LangChain's
 * counts by message id, the AI SDK ladder's counts by message shape), all kept across runs.
 * `fresh`: a new token counter and empty caches for every run, in a process that has already run
 * the code (JIT-compiled, tokenizer tables loaded). A cold process is measured apart (first-call.ts).
 */
export type TimingMode = 'warm' | 'fresh';

export type ContenderFamily = 'ollm' | 'LangChain.js' | 'AI SDK' | 'floor';

/** A contender prepared for one conversation and limit (conversions done, untimed). */
export interface PreparedContender {
  /** Untimed set-up of one run in `mode`; returns the call that is timed. */
  arm(mode: TimingMode): () => unknown;
}

/** One way to bring a conversation to a token limit (or the floor any of them pays), for the speed section. */
export interface SpeedContender {
  /** Stable key in reports: `trim`, `mask,code-aware,trim`, `langchain-cached`, `floor`. */
  readonly name: string;
  readonly label: string;
  readonly family: ContenderFamily;
  /** The modes it has: a plain counter and the floor keep nothing between runs, so they have no warm mode. */
  readonly modes: readonly TimingMode[];
  /**
   * Its warm state is complete once armed (LangChain's counts by id), so warm timing needs no
   * untimed run first; ollm's caches and the AI SDK ladder's counts by shape are filled by running.
   */
  readonly warmWhenArmed?: boolean;
  /** Too slow to run every round (the plain LangChain counter): runs in the first `costlyRounds` only. */
  readonly costly?: boolean;
  /** Untimed: conversions, and whatever the contender must know of the conversation first. */
  prepare(messages: readonly Message[], limit: number): PreparedContender | Promise<PreparedContender>;
}

/** The o200k counter every contender counts with (the same gpt-tokenizer build, the same totals). */
export function freshCounter(): TokenCounter {
  return new TokenCounter(createTokenizer('o200k_base'));
}

/** A counter that has counted `messages`, as a live session's counter has. */
export function warmCounter(messages: readonly Message[]): TokenCounter {
  const counter = freshCounter();
  counter.countMessages(messages);
  return counter;
}
