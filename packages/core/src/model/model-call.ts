import { createCallSignal } from './call-signal.js';
import { retryWithBackoff, type RetryEvent } from './retry.js';

/** How a model client retries transient faults (the same settings on every `@ollm/model-*`). */
export interface ModelRetrySettings {
  /** Retries after the first attempt on transient faults; default 2. */
  readonly maxRetries?: number;
  /** Backoff between retries (exponential with jitter). */
  readonly retryDelay?: { readonly initialDelayMs?: number; readonly maxDelayMs?: number };
  /** Called before each retry (e.g. to show "retrying in 2 s"). */
  readonly onRetry?: (event: RetryEvent) => void;
}

export interface ModelCallOptions {
  /** The caller's signal: its abort ends the call with the caller's own reason. */
  readonly abortSignal: AbortSignal | undefined;
  /** Total time for the call, retries and backoff included. */
  readonly timeoutMs: number;
  readonly retry: ModelRetrySettings;
  /** The error a call ends with when the total timeout fires, given the attempts made and the last failure. */
  readonly timeoutError: (attempts: number, cause: unknown) => Error;
}

/**
 * Runs one model call: `attempt` is retried with backoff under one signal that combines the
 * caller's abort with the total timeout. A caller's abort wins over everything, a timeout becomes
 * `timeoutError`, and any other failure is thrown as the last attempt left it.
 */
export async function runModelCall<T>(options: ModelCallOptions, attempt: (attempt: number, signal: AbortSignal) => Promise<T>): Promise<T> {
  const { abortSignal, retry } = options;
  const call = createCallSignal({ abortSignal, timeoutMs: options.timeoutMs });
  let attempts = 0;
  try {
    return await retryWithBackoff(
      async (index) => {
        attempts = index + 1;
        return attempt(index, call.signal);
      },
      {
        abortSignal: call.signal,
        ...(retry.maxRetries !== undefined ? { maxRetries: retry.maxRetries } : {}),
        ...retry.retryDelay,
        ...(retry.onRetry ? { onRetry: retry.onRetry } : {}),
      },
    );
  } catch (error) {
    if (call.callerAborted()) throw abortSignal?.reason ?? error;
    if (call.timedOut()) throw options.timeoutError(attempts, error);
    throw error;
  }
}
