/** The signal one model call runs under: the caller's signal combined with a total timeout. */
export interface CallSignal {
  readonly signal: AbortSignal;
  /** True when the total timeout fired (and the caller did not abort first). */
  timedOut(): boolean;
  /** True when the caller's own signal aborted. */
  callerAborted(): boolean;
}

/**
 * Combines the caller's AbortSignal with `AbortSignal.timeout(timeoutMs)`. The timeout covers the
 * whole call, retries and backoff included, so a caller's deadline is never multiplied by them.
 */
export function createCallSignal({ abortSignal, timeoutMs }: { abortSignal?: AbortSignal; timeoutMs?: number }): CallSignal {
  const signals: AbortSignal[] = [];
  if (abortSignal) signals.push(abortSignal);
  const timeoutSignal = timeoutMs !== undefined && Number.isFinite(timeoutMs) ? AbortSignal.timeout(timeoutMs) : undefined;
  if (timeoutSignal) signals.push(timeoutSignal);
  const signal = signals.length === 0 ? new AbortController().signal : AbortSignal.any(signals);
  return {
    signal,
    timedOut: () => timeoutSignal?.aborted === true && abortSignal?.aborted !== true,
    callerAborted: () => abortSignal?.aborted === true,
  };
}
