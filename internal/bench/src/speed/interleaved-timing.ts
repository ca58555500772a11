import { timeCall } from '../measure.js';
import { interleavedOrder } from './interleaved-order.js';

/** One participant of an interleaved measurement: `arm` sets up a run (untimed) and returns the call to time. */
export interface TimedParticipant {
  readonly name: string;
  arm(): () => unknown;
  /** Takes part in the first N rounds only (a contender too slow to run every round); default every round. */
  readonly rounds?: number;
  /** Left out of the warm-up round (its state is complete once armed). */
  readonly skipWarmUp?: boolean;
}

export interface ParticipantTimes {
  /** Milliseconds of each timed run, in round order. */
  readonly samples: number[];
  /** The first error a run raised; the participant is not run again after it. */
  error?: string;
}

export interface InterleavedOptions {
  readonly rounds: number;
  /** One untimed round first (in the first round's order): caches filled, code compiled. */
  readonly warmUp?: boolean;
}

/**
 * Times the participants side by side: round after round, each runs once, in an order that
 * rotates every round (`interleavedOrder`), so the machine's slow moments fall on all of them
 * alike. Returns each participant's samples by name.
 */
export async function timeInterleaved(participants: readonly TimedParticipant[], options: InterleavedOptions): Promise<Map<string, ParticipantTimes>> {
  const times = new Map<string, ParticipantTimes>(participants.map((participant) => [participant.name, { samples: [] }]));
  const runOnce = async (participant: TimedParticipant, timed: boolean): Promise<void> => {
    const entry = times.get(participant.name)!;
    if (entry.error !== undefined) return;
    if (timed && participant.rounds !== undefined && entry.samples.length >= participant.rounds) return;
    try {
      const call = participant.arm();
      const milliseconds = await timeCall(call);
      if (timed) entry.samples.push(milliseconds);
    } catch (error) {
      entry.error = error instanceof Error ? error.message : String(error);
    }
  };
  if (options.warmUp) for (const participant of participants) if (!participant.skipWarmUp) await runOnce(participant, false);
  for (let round = 0; round < options.rounds; round += 1) {
    for (const index of interleavedOrder(participants.length, round)) await runOnce(participants[index]!, true);
  }
  return times;
}
