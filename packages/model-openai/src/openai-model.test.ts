import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@ollm/core';
import { ModelResponseError, ModelUnavailableError, textPart } from '@ollm/core';
import type { FakeModelServer } from '@ollm/fake-model-server';
import { startFakeModelServer } from '@ollm/fake-model-server';
import type { OpenAIModelSettings } from './openai-model.js';
import { createOpenAIModel } from './openai-model.js';
import { createOpenAI } from './openai-provider.js';

let server: FakeModelServer;

beforeEach(async () => {
  server ??= await startFakeModelServer();
  await server.reset();
});
afterAll(async () => {
  await server.close();
});

const messages: Message[] = [
  { id: 's', role: 'system', parts: [textPart('You are terse.')] },
  { id: 'u', role: 'user', parts: [textPart('Please summarise the plan for src/index.ts and the retry policy')] },
];
const expectedText = 'fake reply to: Please summarise the plan for src/index.ts and the retry policy';
const secret = 'sk-test-secret-key-0123456789';

function model(settings: Partial<OpenAIModelSettings> = {}) {
  return createOpenAIModel({
    baseURL: `${server.url}/v1`,
    apiKey: secret,
    model: 'gpt-fake',
    retryDelay: { initialDelayMs: 20, maxDelayMs: 100 },
    ...settings,
  });
}

function countingFetch() {
  const calls: string[] = [];
  const counted: typeof fetch = (input, init) => {
    calls.push(String(input));
    return fetch(input, init);
  };
  return { calls, fetch: counted };
}

describe('createOpenAIModel', () => {
  it('completes without streaming, sends the key, and reports the server usage', async () => {
    const result = await model().complete({ messages, maxOutputTokens: 100, temperature: 0 });
    expect(result.text).toBe(expectedText);
    const recorded = server.requests[0]!;
    expect(recorded.headers['authorization']).toBe(`Bearer ${secret}`);
    expect(recorded.stream).toBe(false);
    expect(recorded.body).toMatchObject({ max_tokens: 100, temperature: 0 });
    expect(result.usage.inputTokens).toBe(recorded.promptTokens);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(result.finishReason).toBe('stop');
  });

  it('streams deltas in order that join to the full text, with usage from the last chunk', async () => {
    const deltas: string[] = [];
    const result = await model().complete({ messages, onTextDelta: (delta) => deltas.push(delta) });
    const recorded = server.requests[0]!;
    expect(recorded.stream).toBe(true);
    expect(recorded.body).toMatchObject({ stream_options: { include_usage: true } });
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(expectedText);
    expect(result.text).toBe(expectedText);
    expect(result.usage.inputTokens).toBe(recorded.promptTokens);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
  });

  it('uses max_completion_tokens when asked', async () => {
    await model({ maxTokensParameter: 'max_completion_tokens' }).complete({ messages, maxOutputTokens: 3 });
    expect(server.requests[0]!.body).toMatchObject({ max_completion_tokens: 3 });
    expect(server.requests[0]!.maxTokens).toBe(3);
  });

  it('lists models, and the provider makes models', async () => {
    expect(await model().listModels()).toContain('fake-llama:8b');
    const provider = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x' });
    expect(provider('gpt-fake').modelId).toBe('gpt-fake');
  });

  it('returns empty text for an empty reply', async () => {
    server.setFault({ kind: 'empty', times: 2 });
    expect((await model().complete({ messages })).text).toBe('');
    expect((await model().complete({ messages, onTextDelta: () => {} })).text).toBe('');
  });
});

describe('faults', () => {
  it('refused: ModelUnavailableError naming the base URL and what to start, after maxRetries', async () => {
    server.setFault('refuse');
    const counter = countingFetch();
    const error = await model({ maxRetries: 2, fetch: counter.fetch })
      .complete({ messages })
      .catch((caught: unknown) => caught);
    expect(ModelUnavailableError.isInstance(error)).toBe(true);
    const unavailable = error as ModelUnavailableError;
    expect(unavailable.message).toContain(`No OpenAI-compatible server at ${server.url}/v1`);
    expect(unavailable.message).toContain('--base-url');
    expect(unavailable.attempts).toBe(3);
    expect(counter.calls.length).toBe(3);
  });

  it('refused, then the server comes back during the retries: success', async () => {
    server.setFault({ kind: 'refuse', resumeAfterMs: 150 });
    const result = await model({ maxRetries: 8, retryDelay: { initialDelayMs: 50, maxDelayMs: 100 } }).complete({ messages });
    expect(result.text).toBe(expectedText);
  });

  it('500 then success, reporting the retry', async () => {
    server.setFault('status-500');
    const retries: number[] = [];
    const result = await model({ onRetry: (event) => retries.push(event.attempt) }).complete({ messages });
    expect(retries).toEqual([0]);
    expect(result.text).toBe(expectedText);
    expect(server.requests.map((request) => request.fault)).toEqual(['status-500', undefined]);
  });

  it('429 with retry-after=1 waits at least 1 s, then succeeds', async () => {
    server.setFault({ kind: 'status-429', retryAfterSeconds: 1 });
    const started = Date.now();
    const result = await model().complete({ messages, onTextDelta: () => {} });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(result.text).toBe(expectedText);
  });

  it('401: not retried, and the API key appears nowhere', async () => {
    server.setFault({ kind: 'status', status: 401, message: `Incorrect API key provided: ${secret}` });
    const logged: string[] = [];
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation((...values: unknown[]) => {
        logged.push(values.map(String).join(' '));
      }),
    );
    try {
      const error = await model()
        .complete({ messages })
        .catch((caught: unknown) => caught);
      expect(ModelResponseError.isInstance(error)).toBe(true);
      const responseError = error as ModelResponseError;
      expect(responseError.status).toBe(401);
      expect(responseError.message).toContain('check the API key');
      expect(responseError.bodyExcerpt).toContain('[redacted]');
      const everything = [responseError.message, responseError.bodyExcerpt, JSON.stringify(responseError), String(responseError.stack), ...logged].join('\n');
      expect(everything).not.toContain(secret);
      expect(server.requests.length).toBe(1);
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });

  it('hang: the total timeout ends the call with a timeout error', async () => {
    server.setFault({ kind: 'hang', times: 'always' });
    const error = await model({ timeoutMs: 300 })
      .complete({ messages })
      .catch((caught: unknown) => caught);
    expect(ModelUnavailableError.isInstance(error)).toBe(true);
    expect((error as ModelUnavailableError).reason).toBe('timeout');
    expect((error as Error).message).toContain('did not answer within 300 ms');
  });

  it('malformed body: ModelResponseError, not retried (plain and streaming)', async () => {
    server.setFault({ kind: 'malformed', times: 2 });
    const plain = await model()
      .complete({ messages })
      .catch((caught: unknown) => caught);
    expect(ModelResponseError.isInstance(plain)).toBe(true);
    expect((plain as Error).message).toContain('not JSON');
    const streamed = await model()
      .complete({ messages, onTextDelta: () => {} })
      .catch((caught: unknown) => caught);
    expect(ModelResponseError.isInstance(streamed)).toBe(true);
    expect(server.requests.length).toBe(2);
  });

  it('wrong shape: ModelResponseError with a body excerpt (plain and streaming)', async () => {
    server.setFault({ kind: 'wrong-shape', times: 2 });
    const plain = await model()
      .complete({ messages })
      .catch((caught: unknown) => caught);
    expect(ModelResponseError.isInstance(plain)).toBe(true);
    expect((plain as ModelResponseError).bodyExcerpt).toContain('this is not a chat completion');
    const streamed = await model()
      .complete({ messages, onTextDelta: () => {} })
      .catch((caught: unknown) => caught);
    expect(ModelResponseError.isInstance(streamed)).toBe(true);
  });

  it('cut non-streaming body: retried, then success', async () => {
    server.setFault('cut-stream');
    expect((await model().complete({ messages })).text).toBe(expectedText);
    expect(server.requests.length).toBe(2);
  });

  it('stream cut before any output: retried, then success with each delta once', async () => {
    server.setFault({ kind: 'cut-stream', chunks: 1 });
    const deltas: string[] = [];
    const result = await model().complete({ messages, onTextDelta: (delta) => deltas.push(delta) });
    expect(result.text).toBe(expectedText);
    expect(deltas.join('')).toBe(expectedText);
    expect(server.requests.length).toBe(2);
  });

  it('stream cut after output: a ModelResponseError that is not retried', async () => {
    server.setFault({ kind: 'cut-stream', chunks: 3 });
    const deltas: string[] = [];
    const error = await model()
      .complete({ messages, onTextDelta: (delta) => deltas.push(delta) })
      .catch((caught: unknown) => caught);
    expect(ModelResponseError.isInstance(error)).toBe(true);
    expect((error as ModelResponseError).isRetryable).toBe(false);
    expect(deltas.length).toBe(2);
    expect(server.requests.length).toBe(1);
  });

  it("the caller's AbortSignal aborts the call with its reason (plain and streaming)", async () => {
    server.setFault({ kind: 'hang', times: 'always' });
    for (const onTextDelta of [undefined, () => {}]) {
      const controller = new AbortController();
      const pending = model().complete({ messages, abortSignal: controller.signal, ...(onTextDelta ? { onTextDelta } : {}) });
      setTimeout(() => controller.abort(new Error('user pressed Ctrl-C')), 100);
      await expect(pending).rejects.toThrow('user pressed Ctrl-C');
    }
  });

  it('too-long replies are returned as they are (providers decide)', async () => {
    server.setFault('too-long');
    const result = await model().complete({ messages, maxOutputTokens: 5 });
    expect(result.usage.outputTokens).toBeGreaterThan(result.usage.inputTokens!);
  });
});
