import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { TokenCounter, createTokenizer, messageText } from '@ollm/core';
import type { FakeModelServer } from './fake-model-server.js';
import { startFakeModelServer } from './fake-model-server.js';

const counter = new TokenCounter(createTokenizer('o200k_base'));
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

function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const chatMessages = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Explain the retry policy in src/model/retry.ts please' },
];

describe('Ollama protocol', () => {
  it('streams NDJSON by default and reports token counts in the final chunk', async () => {
    const response = await post('/api/chat', { model: 'fake-llama:8b', messages: chatMessages });
    expect(response.headers.get('content-type')).toContain('application/x-ndjson');
    const lines = (await response.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    const final = lines.at(-1);
    expect(final.done).toBe(true);
    expect(lines.slice(0, -1).every((line) => line.done === false)).toBe(true);
    const text = lines.map((line) => line.message.content).join('');
    expect(text).toBe('fake reply to: Explain the retry policy in src/model/retry.ts please');
    const recorded = server.requests[0]!;
    expect(recorded.path).toBe('/api/chat');
    expect(recorded.stream).toBe(true);
    expect(recorded.messages.map(messageText)).toEqual(chatMessages.map((message) => message.content));
    expect(final.prompt_eval_count).toBe(recorded.promptTokens);
    expect(recorded.promptTokens).toBe(counter.countMessages(recorded.messages));
    expect(final.eval_count).toBe(counter.countText(text));
  });

  it('answers one JSON object with stream:false and honours num_predict', async () => {
    const response = await post('/api/chat', {
      model: 'fake-llama:8b',
      messages: chatMessages,
      stream: false,
      options: { num_predict: 3 },
    });
    const body = await response.json().then(untyped);
    expect(body.done).toBe(true);
    expect(body.done_reason).toBe('length');
    expect(body.eval_count).toBe(3);
    expect(counter.countText(body.message.content)).toBe(3);
    expect(server.requests[0]!.maxTokens).toBe(3);
  });

  it('lists models and shows context length and parameter size', async () => {
    const tags = await (await fetch(`${server.url}/api/tags`)).json().then(untyped);
    expect(tags.models.map((model: { name: string }) => model.name)).toContain('fake-llama:8b');
    const show = await (await post('/api/show', { model: 'fake-llama:8b' })).json().then(untyped);
    expect(show.details.parameter_size).toBe('8.0B');
    const architecture = show.model_info['general.architecture'];
    expect(show.model_info[`${architecture}.context_length`]).toBe(8192);
  });
});

describe('OpenAI protocol', () => {
  it('answers a chat completion with usage', async () => {
    const response = await post('/v1/chat/completions', { model: 'gpt-fake', messages: chatMessages, max_tokens: 50 });
    const body = await response.json().then(untyped);
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0].message.content).toMatch(/^fake reply to: Explain/);
    expect(body.choices[0].finish_reason).toBe('stop');
    expect(body.usage.prompt_tokens).toBe(server.requests[0]!.promptTokens);
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
  });

  it('streams SSE chunks ending in [DONE], with usage last when asked', async () => {
    const response = await post('/v1/chat/completions', {
      model: 'gpt-fake',
      messages: chatMessages,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = (await response.text())
      .split('\n\n')
      .filter(Boolean)
      .map((event) => event.replace(/^data: /, ''));
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((event) => JSON.parse(event));
    const usageChunk = chunks.at(-1);
    expect(usageChunk.choices).toEqual([]);
    expect(usageChunk.usage.prompt_tokens).toBe(server.requests[0]!.promptTokens);
    const text = chunks.flatMap((chunk) => chunk.choices.map((choice: { delta: { content?: string } }) => choice.delta.content ?? '')).join('');
    expect(text).toMatch(/^fake reply to: Explain/);
    expect(usageChunk.usage.completion_tokens).toBe(counter.countText(text));
  });

  it('lists models', async () => {
    const body = await (await fetch(`${server.url}/v1/models`)).json().then(untyped);
    expect(body.object).toBe('list');
    expect(body.data[0].id).toBe('fake-llama:8b');
  });

  it('reports no context length by default, as OpenAI does; one model at /v1/models/{id}', async () => {
    const listed = await (await fetch(`${server.url}/v1/models`)).json().then(untyped);
    expect(Object.keys(listed.data[0]).sort()).toEqual(['created', 'id', 'object', 'owned_by']);
    const one = await (await fetch(`${server.url}/v1/models/${encodeURIComponent('fake-qwen:32b')}`)).json().then(untyped);
    expect(one).toMatchObject({ id: 'fake-qwen:32b', object: 'model' });
    expect((await fetch(`${server.url}/props`)).status).toBe(404);
  });

  it.each([
    { shape: 'vllm', fields: { max_model_len: 4096 } },
    { shape: 'lm-studio', fields: { max_context_length: 32768, loaded_context_length: 4096 } },
    { shape: 'llama-cpp', fields: { meta: expect.objectContaining({ n_ctx_train: 32768 }) } },
    { shape: 'openrouter', fields: { context_length: 32768 } },
  ] as const)('reports the context length in the $shape shape', async ({ shape, fields }) => {
    const shaped = await startFakeModelServer({
      openAIContextShape: shape,
      models: [{ name: 'served', contextLength: 32768, loadedContextLength: 4096 }],
    });
    try {
      const listed = await (await fetch(`${shaped.url}/v1/models`)).json().then(untyped);
      expect(listed.data[0]).toMatchObject({ id: 'served', ...fields });
      const one = await (await fetch(`${shaped.url}/v1/models/served`)).json().then(untyped);
      expect(one).toMatchObject({ id: 'served', ...fields });
      const props = await fetch(`${shaped.url}/props`);
      if (shape === 'llama-cpp') expect((await props.json().then(untyped)).default_generation_settings.n_ctx).toBe(4096);
      else expect(props.status).toBe(404);
    } finally {
      await shaped.close();
    }
  });

  it('honours max_completion_tokens and records headers', async () => {
    const response = await fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer test-key' },
      body: JSON.stringify({ model: 'gpt-fake', messages: chatMessages, max_completion_tokens: 2 }),
    });
    const body = await response.json().then(untyped);
    expect(body.usage.completion_tokens).toBe(2);
    expect(server.requests[0]!.headers['authorization']).toBe('Bearer test-key');
  });
});

describe('replies', () => {
  it('uses a custom reply function', async () => {
    const custom = await startFakeModelServer({ reply: (request) => `custom ${request.messages.length}` });
    try {
      const response = await fetch(`${custom.url}/v1/chat/completions`, {
        method: 'POST',
        body: JSON.stringify({ model: 'm', messages: chatMessages }),
      });
      expect((await response.json().then(untyped)).choices[0].message.content).toBe('custom 2');
    } finally {
      await custom.close();
    }
  });

  it('answers 404 for unknown models when strict', async () => {
    const strict = await startFakeModelServer({ strictModels: true });
    try {
      const response = await fetch(`${strict.url}/api/chat`, {
        method: 'POST',
        body: JSON.stringify({ model: 'missing', messages: chatMessages }),
      });
      expect(response.status).toBe(404);
      expect((await response.json().then(untyped)).error).toContain('missing');
    } finally {
      await strict.close();
    }
  });
});
