import { describe, expect, it } from 'vitest';
import { ModelResponseError } from '../errors/model-response-error.js';
import { ModelUnavailableError } from '../errors/model-unavailable-error.js';
import { DEFAULT_RETRY_POLICY, backoffDelay, retryWithBackoff } from './retry.js';
import { parseRetryAfter } from './retry-after.js';
import { createCallSignal } from './call-signal.js';
import { displayURL, isConnectionError } from './connection-error.js';

const transient = () => new ModelResponseError({ provider: 'test', message: '500', status: 500, isRetryable: true });

describe('retryWithBackoff', () => {
  it('retries retryable errors and returns the first success', async () => {
    const attempts: number[] = [];
    const result = await retryWithBackoff(
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 2) throw transient();
        return 'ok';
      },
      { initialDelayMs: 1 },
    );
    expect(result).toBe('ok');
    expect(attempts).toEqual([0, 1, 2]);
  });

  it('throws the last error once the retries are used up', async () => {
    let calls = 0;
    const failing = retryWithBackoff(
      async () => {
        calls++;
        throw new ModelUnavailableError({ provider: 'test', baseURL: 'http://x', hint: 'start it' });
      },
      { maxRetries: 3, initialDelayMs: 1 },
    );
    await expect(failing).rejects.toSatisfy(ModelUnavailableError.isInstance);
    expect(calls).toBe(4);
  });

  it('does not retry errors that are not retryable', async () => {
    let calls = 0;
    const failing = retryWithBackoff(async () => {
      calls++;
      throw new ModelResponseError({ provider: 'test', message: 'bad request', status: 400 });
    });
    await expect(failing).rejects.toThrow('bad request');
    expect(calls).toBe(1);
  });

  it('honours retry-after instead of the backoff', async () => {
    const delays: number[] = [];
    await retryWithBackoff(
      async (attempt) => {
        if (attempt === 0) {
          throw new ModelResponseError({ provider: 't', message: '429', status: 429, isRetryable: true, retryAfterMs: 30 });
        }
        return 1;
      },
      { onRetry: (event) => delays.push(event.delayMs) },
    );
    expect(delays).toEqual([30]);
  });

  it('stops waiting when the signal aborts', async () => {
    const controller = new AbortController();
    const failing = retryWithBackoff(
      async () => {
        throw transient();
      },
      { initialDelayMs: 60_000, abortSignal: controller.signal },
    );
    controller.abort(new Error('stopped'));
    await expect(failing).rejects.toThrow('stopped');
  });
});

describe('backoffDelay', () => {
  it('grows exponentially within its jitter band and is capped', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, initialDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(0, policy, () => 0)).toBe(50);
    expect(backoffDelay(0, policy, () => 0.999999)).toBe(100);
    expect(backoffDelay(2, policy, () => 0.999999)).toBe(400);
    expect(backoffDelay(10, policy, () => 0.999999)).toBe(1000);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('1')).toBe(1000);
    expect(parseRetryAfter('0.5')).toBe(500);
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:28:03 GMT', now)).toBe(3000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});

describe('createCallSignal', () => {
  it('tells a timeout from a caller abort', async () => {
    const timed = createCallSignal({ timeoutMs: 10 });
    await new Promise((resolve) => timed.signal.addEventListener('abort', resolve));
    expect(timed.timedOut()).toBe(true);
    const controller = new AbortController();
    const aborted = createCallSignal({ abortSignal: controller.signal, timeoutMs: 60_000 });
    controller.abort();
    expect(aborted.signal.aborted).toBe(true);
    expect(aborted.callerAborted()).toBe(true);
    expect(aborted.timedOut()).toBe(false);
  });
});

describe('connection errors', () => {
  it('finds connection codes along the cause chain', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) });
    expect(isConnectionError(refused)).toBe(true);
    expect(isConnectionError(new Error('nope'))).toBe(false);
    // fetch's blocked ports (e.g. 9) fail before connecting: for the user, nothing is listening.
    expect(isConnectionError(new TypeError('fetch failed', { cause: new Error('bad port') }))).toBe(true);
  });

  it('removes credentials from URLs', () => {
    expect(displayURL('http://user:secret@127.0.0.1:8080/v1')).toBe('http://127.0.0.1:8080/v1');
  });
});
