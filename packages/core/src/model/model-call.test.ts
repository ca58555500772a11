import { describe, expect, it } from 'vitest';
import { ModelResponseError } from '../errors/model-response-error.js';
import { runModelCall } from './model-call.js';

const retry = { maxRetries: 2, retryDelay: { initialDelayMs: 1, maxDelayMs: 2 } };
const timeoutError = (attempts: number) => new Error(`timed out after ${attempts} attempt(s)`);
const retryable = () => new ModelResponseError({ provider: 'test', status: 500, isRetryable: true, message: '500' });

describe('runModelCall', () => {
  it('retries a retryable failure, reporting each retry', async () => {
    const retried: number[] = [];
    const result = await runModelCall(
      { abortSignal: undefined, timeoutMs: 5_000, retry: { ...retry, onRetry: (event) => retried.push(event.attempt) }, timeoutError },
      async (attempt) => {
        if (attempt < 2) throw retryable();
        return 'done';
      },
    );
    expect(result).toBe('done');
    expect(retried).toEqual([0, 1]);
  });

  it('ends a hanging call with timeoutError, and a caller abort with the caller reason', async () => {
    const hang = (_attempt: number, signal: AbortSignal) =>
      new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
    await expect(runModelCall({ abortSignal: undefined, timeoutMs: 50, retry, timeoutError }, hang)).rejects.toThrow('timed out after 1 attempt(s)');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('user pressed Ctrl-C')), 20);
    await expect(runModelCall({ abortSignal: controller.signal, timeoutMs: 5_000, retry, timeoutError }, hang)).rejects.toThrow('user pressed Ctrl-C');
  });
});
