import type { Message } from '@ollm/core';
import { median } from '../measure.js';
import { timeInterleaved } from './interleaved-timing.js';
import { freshCounter, type PreparedContender, type SpeedContender, type TimingMode } from './speed-contender.js';

/** A conversation the speed section times, with its size. */
export interface SpeedConversation {
  readonly id: string;
  readonly messages: readonly Message[];
  readonly tokens: number;
}

/** One contender on one conversation in one mode: the median of its interleaved runs. */
export interface InProcessCase {
  readonly conversation: string;
  readonly tokensBefore: number;
  readonly mode: TimingMode;
  readonly contender: string;
  readonly medianMs: number;
  readonly samples: readonly number[];
  readonly error?: string;
}

export interface InProcessOptions {
  readonly rounds: number;
  /** Rounds of a costly contender (the plain LangChain counter). */
  readonly costlyRounds: number;
  /** Share of each conversation's tokens to compact to. */
  readonly budget: number;
  readonly onConversation?: (done: number, total: number) => void;
}

/**
 * Every contender on every conversation at `budget`, warm and with a fresh counter, timed
 * interleaved (warm runs after one untimed run each). The same o200k counter for all.
 */
export async function measureInProcess(
  conversations: readonly SpeedConversation[],
  contenders: readonly SpeedContender[],
  options: InProcessOptions,
): Promise<InProcessCase[]> {
  const cases: InProcessCase[] = [];
  for (const [index, conversation] of conversations.entries()) {
    const limit = Math.floor(conversation.tokens * options.budget);
    const prepared = new Map<string, PreparedContender>();
    for (const contender of contenders) prepared.set(contender.name, await contender.prepare(conversation.messages, limit));
    // Counted once before (untimed), so that whichever contender runs first with a new counter finds
    // core's content cache as the others do: a new counter in a process that has seen these texts.
    freshCounter().countMessages(conversation.messages);
    for (const mode of ['fresh', 'warm'] as const) {
      const inMode = contenders.filter((contender) => contender.modes.includes(mode));
      const times = await timeInterleaved(
        inMode.map((contender) => ({
          name: contender.name,
          arm: () => prepared.get(contender.name)!.arm(mode),
          ...(contender.costly ? { rounds: options.costlyRounds } : {}),
          ...(contender.warmWhenArmed ? { skipWarmUp: true } : {}),
        })),
        { rounds: options.rounds, warmUp: mode === 'warm' },
      );
      for (const contender of inMode) {
        const entry = times.get(contender.name)!;
        cases.push({
          conversation: conversation.id,
          tokensBefore: conversation.tokens,
          mode,
          contender: contender.name,
          medianMs: median(entry.samples),
          samples: entry.samples,
          ...(entry.error !== undefined ? { error: entry.error } : {}),
        });
      }
    }
    options.onConversation?.(index + 1, conversations.length);
  }
  return cases;
}
