import { ModelResponseError } from '../errors/model-response-error.js';
import { ModelUnavailableError } from '../errors/model-unavailable-error.js';

/** How a model call retries transient failures. */
export interface RetryPolicy {
  /** Retries after the first attempt (so `maxRetries + 1` attempts in all). */
  readonly maxRetries: number;
  readonly initialDelayMs: number;
  readonly maxDelayMs: number;
  readonly backoffFactor: number;
  /** A server asking to wait longer than this is not retried (the error is thrown at once). */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 2,
  initialDelayMs: 500,
  maxDelayMs: 8_000,
  backoffFactor: 2,
  maxRetryAfterMs: 60_000,
};

export interface RetryDecision {
  readonly retryable: boolean;
  /** The server's `retry-after`, honoured instead of the backoff when present. */
  readonly retryAfterMs?: number;
}

export interface RetryEvent {
  /** The attempt that failed, from 0. */
  readonly attempt: number;
  readonly delayMs: number;
  readonly error: unknown;
}

export interface RetryOptions extends Partial<RetryPolicy> {
  /** Aborts the waits between attempts (the operation gets the same signal itself). */
  readonly abortSignal?: AbortSignal;
  /** Default: `isRetryableModelError`. */
  readonly shouldRetry?: (error: unknown) => RetryDecision;
  readonly onRetry?: (event: RetryEvent) => void;
  /** Source of jitter in [0, 1); injectable for tests. */
  readonly random?: () => number;
}

/**
 * Reads the retry decision the model errors carry: `isRetryable` and `retryAfterMs` on
 * ModelResponseError / ModelUnavailableError. Anything else is not retried.
 */
export function isRetryableModelError(error: unknown): RetryDecision {
  if (ModelResponseError.isInstance(error)) {
    return error.retryAfterMs === undefined ? { retryable: error.isRetryable } : { retryable: error.isRetryable, retryAfterMs: error.retryAfterMs };
  }
  if (ModelUnavailableError.isInstance(error)) return { retryable: error.isRetryable };
  return { retryable: false };
}

/**
 * Exponential backoff with jitter: the delay for `attempt` (from 0) is drawn from the upper half
 * of `initialDelayMs * backoffFactor^attempt` (capped), so clients that failed together spread out.
 */
export function backoffDelay(attempt: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.initialDelayMs * policy.backoffFactor ** attempt);
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}

/**
 * Runs `operation` until it succeeds, a failure is not retryable, or the retries are used up;
 * then throws the last error. Waits honour a server's retry-after and stop at once on abort
 * (throwing the signal's reason).
 */
export async function retryWithBackoff<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const policy: RetryPolicy = {
    maxRetries: options.maxRetries ?? DEFAULT_RETRY_POLICY.maxRetries,
    initialDelayMs: options.initialDelayMs ?? DEFAULT_RETRY_POLICY.initialDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_POLICY.maxDelayMs,
    backoffFactor: options.backoffFactor ?? DEFAULT_RETRY_POLICY.backoffFactor,
    maxRetryAfterMs: options.maxRetryAfterMs ?? DEFAULT_RETRY_POLICY.maxRetryAfterMs,
  };
  const shouldRetry = options.shouldRetry ?? isRetryableModelError;
  for (let attempt = 0; ; attempt++) {
    options.abortSignal?.throwIfAborted();
    try {
      return await operation(attempt);
    } catch (error) {
      // Once aborted, the abort is the outcome, whatever the attempt failed with.
      if (options.abortSignal?.aborted) throw options.abortSignal.reason;
      if (attempt >= policy.maxRetries) throw error;
      const decision = shouldRetry(error);
      if (!decision.retryable) throw error;
      if (decision.retryAfterMs !== undefined && decision.retryAfterMs > policy.maxRetryAfterMs) throw error;
      const delayMs = decision.retryAfterMs ?? backoffDelay(attempt, policy, options.random);
      options.onRetry?.({ attempt, delayMs, error });
      await abortableSleep(delayMs, options.abortSignal);
    }
  }
}

function abortableSleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, milliseconds);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
