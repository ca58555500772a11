import type { BenchConversation } from '../fixture-set.js';
import { median } from '../measure.js';
import { timeInterleaved } from './interleaved-timing.js';
import { scaledConversation } from './scaled-conversation.js';
import { predictMilliseconds, type SizePoint } from './scaling-prediction.js';
import { freshCounter, type PreparedContender, type SpeedContender, type TimingMode } from './speed-contender.js';

/** One contender at one size in one mode. */
export interface ScalingPoint {
  readonly tokens: number;
  readonly messages: number;
  readonly contender: string;
  readonly mode: TimingMode;
  readonly medianMs?: number;
  readonly samples: readonly number[];
  /** Why it was not run at this size (its predicted time is over the cap). */
  readonly skipped?: string;
  readonly error?: string;
}

export interface ScalingOptions {
  /** Target sizes in tokens, ascending (each conversation is at least this large). */
  readonly sizes: readonly number[];
  readonly budget: number;
  /** Rounds at a size: more for the small ones. */
  readonly roundsAt: (tokens: number) => number;
  /** A contender whose predicted run at the next size is over this is not run there (or above). */
  readonly capMilliseconds: number;
  readonly onSize?: (tokens: number, messages: number) => void;
}

/**
 * The 10K-5M curve: every contender on conversations of each size (scaledConversation), warm and
 * fresh, interleaved at each size. A contender stops once its own growth predicts a run over the cap.
 */
export async function measureScaling(
  conversations: readonly BenchConversation[],
  contenders: readonly SpeedContender[],
  options: ScalingOptions,
): Promise<ScalingPoint[]> {
  const points: ScalingPoint[] = [];
  const history = new Map<string, SizePoint[]>();
  const stopped = new Map<string, string>();
  for (const size of options.sizes) {
    const conversation = scaledConversation(conversations, size);
    options.onSize?.(conversation.tokens, conversation.messages.length);
    const limit = Math.floor(conversation.tokens * options.budget);
    const rounds = options.roundsAt(conversation.tokens);
    // As in-process-workload: counted once (untimed), so the first contender with a new counter is not the only one to tokenise.
    freshCounter().countMessages(conversation.messages);
    for (const mode of ['fresh', 'warm'] as const) {
      const inMode = contenders.filter((contender) => contender.modes.includes(mode));
      const running: SpeedContender[] = [];
      for (const contender of inMode) {
        const key = `${contender.name}\u0000${mode}`;
        const predicted = predictMilliseconds(history.get(key) ?? [], conversation.tokens);
        if (!stopped.has(key) && predicted !== undefined && predicted > options.capMilliseconds) {
          stopped.set(
            key,
            `predicted ${Math.round(predicted / 1000)} s at ${conversation.tokens.toLocaleString('en-US')} tokens, over the ${options.capMilliseconds / 1000} s cap`,
          );
        }
        const reason = stopped.get(key);
        if (reason)
          points.push({ tokens: conversation.tokens, messages: conversation.messages.length, contender: contender.name, mode, samples: [], skipped: reason });
        else running.push(contender);
      }
      const prepared = new Map<string, PreparedContender>();
      for (const contender of running) prepared.set(contender.name, await contender.prepare(conversation.messages, limit));
      const times = await timeInterleaved(
        running.map((contender) => ({
          name: contender.name,
          arm: () => prepared.get(contender.name)!.arm(mode),
          ...(contender.costly ? { rounds: 1 } : {}),
          ...(contender.warmWhenArmed ? { skipWarmUp: true } : {}),
        })),
        { rounds, warmUp: mode === 'warm' },
      );
      for (const contender of running) {
        const entry = times.get(contender.name)!;
        const key = `${contender.name}\u0000${mode}`;
        const medianMs = entry.samples.length > 0 ? median(entry.samples) : undefined;
        if (medianMs !== undefined) history.set(key, [...(history.get(key) ?? []), { tokens: conversation.tokens, ms: medianMs }]);
        else stopped.set(key, `failed at a smaller size: ${entry.error ?? 'no run'}`);
        points.push({
          tokens: conversation.tokens,
          messages: conversation.messages.length,
          contender: contender.name,
          mode,
          ...(medianMs !== undefined ? { medianMs } : {}),
          samples: entry.samples,
          ...(entry.error !== undefined ? { error: entry.error } : {}),
        });
      }
    }
  }
  return points;
}
