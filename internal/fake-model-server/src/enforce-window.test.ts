import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const words = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`).join(' ');

describe('enforceWindow', () => {
  it('refuses a chat over the window with context_length_exceeded, and answers one that fits', async () => {
    server = await startFakeModelServer({ models: [{ name: 'm', contextLength: 1000 }], enforceWindow: true });
    const post = (body: unknown, path = '/v1/chat/completions') => fetch(`${server!.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    const over = await post({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: words(600) }] });
    expect(over.status).toBe(400);
    const error = ((await over.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('context_length_exceeded');
    expect(error.message).toMatch(/maximum context length is 1000 tokens\. However, you requested \d+ tokens \(\d+ in the messages, 100 in the completion\)/);
    const fits = await post({ model: 'm', max_tokens: 100, messages: [{ role: 'user', content: words(10) }] });
    expect(fits.status).toBe(200);
    // Ollama: num_ctx under the model's length is the window.
    const ollama = await post({ model: 'm', stream: false, options: { num_ctx: 256 }, messages: [{ role: 'user', content: words(200) }] }, '/api/chat');
    expect(ollama.status).toBe(400);
    expect(((await ollama.json()) as { error: string }).error).toMatch(/maximum context length is 256 tokens/);
    expect(server.requests.map((request) => request.responseBody === undefined)).toEqual([true, false, true]);
  });

  it('records the body of a reply as it was written', async () => {
    server = await startFakeModelServer();
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'fake-llama:8b', stream: true, messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(await response.text()).toBe(server.requests[0]!.responseBody);
  });
});

describe('truncateOverWindow', () => {
  it('drops the oldest messages after the system prompt, silently, and reports the cut prompt', async () => {
    server = await startFakeModelServer({ models: [{ name: 'm', contextLength: 1000 }], truncateOverWindow: true });
    const messages = [
      { role: 'system', content: 'system prompt' },
      { role: 'user', content: `first ${words(500)}` },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: `second ${words(300)}` },
    ];
    const response = await fetch(`${server.url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: false, messages }) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { prompt_eval_count: number };
    expect(body.prompt_eval_count).toBeLessThanOrEqual(1000);
    expect(server.requests[0]!.promptTokens).toBeGreaterThan(1000);
    expect(server.requests[0]!.truncated).toBe(true);
    const fits = await fetch(`${server.url}/api/chat`, { method: 'POST', body: JSON.stringify({ model: 'm', stream: false, messages: messages.slice(2) }) });
    expect(((await fits.json()) as { prompt_eval_count: number }).prompt_eval_count).toBe(server.requests[1]!.promptTokens);
    expect(server.requests[1]!.truncated).toBeUndefined();
  });
});
