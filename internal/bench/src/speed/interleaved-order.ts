/**
 * The order contenders run in during round `round` of an interleaved measurement: every round runs
 * each of the `count` contenders once, and the order rotates one step per round (A B C, B C A,
 * C A B, A B C …), so no contender always runs first (cold caches, a GC owed by the previous one)
 * or always right after the same neighbour. Indexes into the contender list.
 */
export function interleavedOrder(count: number, round: number): number[] {
  if (!Number.isInteger(count) || count < 0) throw new RangeError(`count must be a whole number >= 0, got ${count}`);
  if (!Number.isInteger(round) || round < 0) throw new RangeError(`round must be a whole number >= 0, got ${round}`);
  return Array.from({ length: count }, (_, position) => (round + position) % count);
}
