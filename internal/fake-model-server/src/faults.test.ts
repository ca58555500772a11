import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { FakeModelServer } from './fake-model-server.js';
import { startFakeModelServer } from './fake-model-server.js';

let server: FakeModelServer;
// Wire bodies are checked field by field below; `any` keeps those checks readable.
const untyped = (value: unknown): any => value;

beforeEach(async () => {
  server ??= await startFakeModelServer();
  await server.reset();
});
afterAll(async () => {
  await server.close();
});

const messages = [{ role: 'user', content: 'hello there, fake model' }];

function ollamaChat(extra: Record<string, unknown> = {}, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}/api/chat`, {
    method: 'POST',
    body: JSON.stringify({ model: 'fake-llama:8b', messages, ...extra }),
    ...init,
  });
}

function openAIChat(extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({ model: 'gpt-fake', messages, ...extra }),
  });
}

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

describe('faults', () => {
  it('status-500 applies to the next request only', async () => {
    server.setFault('status-500');
    const failed = await ollamaChat({ stream: false });
    expect(failed.status).toBe(500);
    expect((await failed.json().then(untyped)).error).toContain('fake internal server error');
    expect((await ollamaChat({ stream: false })).status).toBe(200);
    expect(server.requests.map((request) => request.fault)).toEqual(['status-500', undefined]);
  });

  it('status-429 sends retry-after in the protocol error shape', async () => {
    server.setFault({ kind: 'status-429', retryAfterSeconds: 3 });
    const response = await openAIChat();
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('3');
    expect((await response.json().then(untyped)).error.type).toBe('rate_limit_exceeded');
  });

  it('applies a queue of faults in order, and "always" until reset', async () => {
    server.setFault([{ kind: 'status', status: 401, times: 2 }, 'status-500']);
    const statuses = [];
    for (let index = 0; index < 4; index++) statuses.push((await openAIChat()).status);
    expect(statuses).toEqual([401, 401, 500, 200]);
    server.setFault({ kind: 'empty', times: 'always' });
    for (let index = 0; index < 3; index++) {
      expect((await (await openAIChat()).json().then(untyped)).choices[0].message.content).toBe('');
    }
  });

  it('paths limit which requests meet a fault', async () => {
    server.setFault({ kind: 'status-500', paths: ['/api/chat'] });
    expect((await fetch(`${server.url}/api/tags`)).status).toBe(200);
    expect((await ollamaChat({ stream: false })).status).toBe(500);
  });

  it('refuse closes the port until resume()', async () => {
    server.setFault('refuse');
    const refused = await fetch(`${server.url}/api/tags`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect(String((refused as TypeError).cause)).toContain('ECONNREFUSED');
    await server.resume();
    expect((await fetch(`${server.url}/api/tags`)).status).toBe(200);
  });

  it('refuse with resumeAfterMs listens again by itself', async () => {
    server.setFault({ kind: 'refuse', resumeAfterMs: 100 });
    await expect(fetch(`${server.url}/api/tags`)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await fetch(`${server.url}/api/tags`)).status).toBe(200);
  });

  it('hang never answers until the client aborts', async () => {
    server.setFault('hang');
    const controller = new AbortController();
    const pending = ollamaChat({}, { signal: controller.signal });
    pending.catch(() => undefined);
    await waitFor(() => server.requests.length === 1);
    // Received and still unanswered: only the abort ends it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await expect(pending).rejects.toThrow(/abort/i);
    expect(server.requests[0]!.fault).toBe('hang');
  });

  it('malformed sends a body that is not JSON', async () => {
    server.setFault('malformed');
    const response = await openAIChat();
    expect(response.status).toBe(200);
    await expect(response.json().then(untyped)).rejects.toThrow(SyntaxError);
  });

  it('wrong-shape sends valid JSON of another schema', async () => {
    server.setFault({ kind: 'wrong-shape', times: 2 });
    const ollama = await (await ollamaChat({ stream: false })).json().then(untyped);
    expect(ollama.message).toBeUndefined();
    const openAI = await (await openAIChat()).json().then(untyped);
    expect(openAI.choices).toBeUndefined();
  });

  it('cut-stream sends a few chunks then destroys the socket', async () => {
    server.setFault({ kind: 'cut-stream', chunks: 2 });
    const response = await ollamaChat();
    const reader = response.body!.getReader();
    const received: string[] = [];
    const failure = await (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        received.push(new TextDecoder().decode(value));
      }
    })().catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(TypeError);
    const lines = received.join('').trim().split('\n');
    expect(lines.length).toBe(2);
    expect(lines.every((line) => JSON.parse(line).done === false)).toBe(true);
  });

  it('cut-stream on a non-streaming reply cuts the JSON body', async () => {
    server.setFault('cut-stream');
    const response = await openAIChat();
    await expect(response.text()).rejects.toThrow();
  });

  it('too-long replies with more tokens than it was sent, ignoring max tokens', async () => {
    server.setFault('too-long');
    const body = await (await openAIChat({ max_tokens: 5 })).json().then(untyped);
    expect(body.usage.completion_tokens).toBeGreaterThan(body.usage.prompt_tokens);
  });
});
