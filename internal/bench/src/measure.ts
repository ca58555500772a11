/** Median of a non-empty list (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Milliseconds since `start` (a `process.hrtime.bigint()` reading). */
export function millisecondsSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

export async function timeAsync(operation: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await operation();
  return millisecondsSince(start);
}

export function timeSync(operation: () => unknown): number {
  const start = process.hrtime.bigint();
  operation();
  return millisecondsSince(start);
}

/** Milliseconds one call takes; a call that returns a promise is timed until it settles. */
export async function timeCall(call: () => unknown): Promise<number> {
  const start = process.hrtime.bigint();
  const result = call();
  if (result instanceof Promise) await result;
  return millisecondsSince(start);
}
