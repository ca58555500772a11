import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Message } from '@ollm/core';
import { ModelResponseError, ModelUnavailableError, textPart } from '@ollm/core';
import type { FakeModelServer } from '@ollm/fake-model-server';
import { startFakeModelServer } from '@ollm/fake-model-server';
import type { OllamaModelSettings } from './ollama-model.js';
import { createOllamaModel } from './ollama-model.js';
import { createOllama, ollama } from './ollama-provider.js';

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

function model(settings: Partial<OllamaModelSettings> = {}) {
  return createOllamaModel({
    host: server.url,
    model: 'fake-llama:8b',
    retryDelay: { initialDelayMs: 20, maxDelayMs: 100 },
    ...settings,
  });
}

/** A fetch that counts the requests the client makes. */
function countingFetch() {
  const calls: string[] = [];
  const counted: typeof fetch = (input, init) => {
    calls.push(String(input));
    return fetch(input, init);
  };
  return { calls, fetch: counted };
}

describe('createOllamaModel', () => {
  it('completes without streaming and reports the server token counts', async () => {
    const result = await model({ numCtx: 4096 }).complete({ messages, maxOutputTokens: 100, temperature: 0 });
    expect(result.text).toBe(expectedText);
    const recorded = server.requests[0]!;
    expect(recorded.stream).toBe(false);
    expect(result.usage.inputTokens).toBe(recorded.promptTokens);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    const body = recorded.body as { options: Record<string, unknown> };
    expect(body.options).toMatchObject({ num_ctx: 4096, num_predict: 100, temperature: 0 });
    expect(result.finishReason).toBe('stop');
  });

  it('streams deltas in order that join to the full text', async () => {
    const deltas: string[] = [];
    const result = await model().complete({ messages, onTextDelta: (delta) => deltas.push(delta) });
    expect(server.requests[0]!.stream).toBe(true);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join('')).toBe(expectedText);
    expect(result.text).toBe(expectedText);
    expect(result.usage.inputTokens).toBe(server.requests[0]!.promptTokens);
  });

  it('describes the model from /api/show, and from /api/ps the window it is loaded with once it is', async () => {
    const expected = { contextLength: 4096, trainedContextLength: 8192, parameterSize: '8.0B' };
    const fresh = await startFakeModelServer();
    try {
      // Not loaded yet: /api/ps does not list it.
      expect(await createOllamaModel({ host: fresh.url, model: 'fake-llama:8b', numCtx: 4096, maxRetries: 0 }).describe()).toEqual(expected);
    } finally {
      await fresh.close();
    }
    expect(await model({ numCtx: 65536 }).describe()).toMatchObject({ ...expected, contextLength: 8192 });
    await model().complete({ messages });
    // The fake server loads a model with Ollama's default window (4,096, under its trained 8,192).
    expect(await model({ numCtx: 4096 }).describe()).toEqual({ ...expected, loadedContextLength: 4096 });
  });

  it('lists models, also through the provider', async () => {
    const names = (await model().listModels()).map((entry) => entry.name);
    expect(names).toContain('fake-llama:8b');
    const provider = createOllama({ host: server.url });
    expect(provider.host).toBe(server.url);
    expect((await provider.listModels())[0]!.parameterSize).toBe('8.0B');
    expect(provider('fake-llama:8b').modelId).toBe('fake-llama:8b');
  });

  it('the default provider reads OLLM_HOST when used', async () => {
    const previous = process.env['OLLM_HOST'];
    process.env['OLLM_HOST'] = server.url;
    try {
      expect(ollama.host).toBe(server.url);
      expect((await ollama('fake-llama:8b').complete({ messages })).text).toBe(expectedText);
    } finally {
      if (previous === undefined) delete process.env['OLLM_HOST'];
      else process.env['OLLM_HOST'] = previous;
    }
  });

  it('returns empty text for an empty reply', async () => {
    server.setFault('empty');
    const result = await model().complete({ messages });
    expect(result.text).toBe('');
    expect(result.usage.outputTokens).toBe(0);
  });
});

describe('faults', () => {
  it('refused: ModelUnavailableError naming the host and what to start, after maxRetries', async () => {
    server.setFault('refuse');
    const counter = countingFetch();
    const error = await model({ maxRetries: 2, fetch: counter.fetch })
      .complete({ messages })
      .catch((caught: unknown) => caught);
    expect(ModelUnavailableError.isInstance(error)).toBe(true);
    const unavailable = error as ModelUnavailableError;
    expect(unavailable.message).toBe(`No Ollama server at ${server.url} — start it with \`ollama serve\`, or use \`--api openai --base-url URL\``);
    expect(unavailable.baseURL).toBe(server.url);
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

  it('500 every time: a retryable ModelResponseError with the status', async () => {
    server.setFault({ kind: 'status-500', times: 'always' });
    const error = await model({ maxRetries: 1 })
      .complete({ messages })
      .catch((caught: unknown) => caught);
    expect(ModelResponseError.isInstance(error)).toBe(true);
    expect((error as ModelResponseError).status).toBe(500);
    expect((error as ModelResponseError).isRetryable).toBe(true);
    expect(server.requests.length).toBe(2);
  });

  it('429 with retry-after=1 waits at least 1 s, then succeeds', async () => {
    server.setFault({ kind: 'status-429', retryAfterSeconds: 1 });
    const started = Date.now();
    const result = await model().complete({ messages });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(result.text).toBe(expectedText);
  });

  it('a 4xx other than 429 is not retried', async () => {
    server.setFault({ kind: 'status', status: 404, message: 'model "x" not found' });
    const error = await model()
      .complete({ messages })
      .catch((caught: unknown) => caught);
    expect(ModelResponseError.isInstance(error)).toBe(true);
    expect((error as ModelResponseError).status).toBe(404);
    expect((error as Error).message).toContain('ollama pull fake-llama:8b');
    expect(server.requests.length).toBe(1);
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

  it('malformed body: ModelResponseError, not retried', async () => {
    server.setFault('malformed');
    const error = await model()
      .complete({ messages })
      .catch((caught: unknown) => caught);
    expect(ModelResponseError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('not JSON');
    expect(server.requests.length).toBe(1);
  });

  it('wrong shape: ModelResponseError with a body excerpt', async () => {
    server.setFault('wrong-shape');
    const error = await model()
      .complete({ messages })
      .catch((caught: unknown) => caught);
    expect(ModelResponseError.isInstance(error)).toBe(true);
    expect((error as ModelResponseError).bodyExcerpt).toContain('this is not a chat response');
  });

  it('wrong shape while streaming: ModelResponseError', async () => {
    server.setFault('wrong-shape');
    const error = await model()
      .complete({ messages, onTextDelta: () => {} })
      .catch((caught: unknown) => caught);
    expect(ModelResponseError.isInstance(error)).toBe(true);
  });

  it('cut non-streaming body: retried, then success', async () => {
    server.setFault('cut-stream');
    const result = await model().complete({ messages });
    expect(result.text).toBe(expectedText);
    expect(server.requests.length).toBe(2);
  });

  it('stream cut before any output: retried, then success with each delta once', async () => {
    server.setFault({ kind: 'cut-stream', chunks: 0 });
    const deltas: string[] = [];
    const result = await model().complete({ messages, onTextDelta: (delta) => deltas.push(delta) });
    expect(result.text).toBe(expectedText);
    expect(deltas.join('')).toBe(expectedText);
  });

  it('stream cut after output: a ModelResponseError that is not retried', async () => {
    server.setFault({ kind: 'cut-stream', chunks: 2 });
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

  it('malformed stream: ModelResponseError naming the line, not retried, nothing printed by the client', async () => {
    server.setFault('malformed');
    // The ollama client prints `invalid json: …` for each line it cannot parse and drops it; the
    // guard fails the stream first, so nothing reaches the console and no text is silently lost.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const error = await model()
        .complete({ messages, onTextDelta: () => {} })
        .catch((caught: unknown) => caught);
      expect(ModelResponseError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/sent a stream line that is not JSON: "/);
      expect(server.requests.length).toBe(1);
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('too-long replies are returned as they are (providers decide)', async () => {
    server.setFault('too-long');
    const result = await model().complete({ messages, maxOutputTokens: 5 });
    expect(result.usage.outputTokens).toBeGreaterThan(result.usage.inputTokens!);
  });
});
