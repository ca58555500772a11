import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { contextFields, fileText, question } from '../test-support/agent-conversation.js';
import { countingFold } from '../test-support/counting-fold.js';
import { SMALL_MODEL, startProxyHarness, type ProxyHarness } from '../test-support/proxy-harness.js';

let harness: ProxyHarness | undefined;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  await harness?.close();
  harness = undefined;
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A port nothing listens on: listen on a free one, then close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A long agent conversation in OpenAI's shape: `turns` questions, each with a file read. */
function longConversation(turns: number): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [{ role: 'system', content: 'You are a coding agent.' }];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push({ role: 'user', content: question(turn) });
    messages.push({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `call_${turn}`, type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }],
    });
    messages.push({ role: 'tool', tool_call_id: `call_${turn}`, content: fileText(turn) });
    messages.push({ role: 'assistant', content: `handler${turn}_3 returns ${2 * (3 + turn) + 3}.` });
  }
  messages.push({ role: 'user', content: 'And the last one?' });
  return messages;
}

async function rawPost(url: string, body: unknown, stream = false): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = stream ? await new Response(response.body).text() : await response.text();
  return { status: response.status, headers: response.headers, text };
}

describe('ollm serve: responses are the upstream bytes', () => {
  it('streams a compacted and an uncompacted chat byte for byte as the upstream wrote them', async () => {
    harness = await startProxyHarness();
    const url = `${harness.proxy.url}/v1/chat/completions`;
    const short = await rawPost(url, { model: SMALL_MODEL.name, stream: true, messages: [{ role: 'user', content: 'hello there' }] }, true);
    const long = await rawPost(
      url,
      { model: SMALL_MODEL.name, stream: true, stream_options: { include_usage: true }, max_tokens: 100, messages: longConversation(30) },
      true,
    );
    expect(contextFields(short.headers.get('x-ollm-context')).action).toBe('fits');
    expect(contextFields(long.headers.get('x-ollm-context')).action).toBe('compacted');
    const [first, second] = harness.fake.requests.filter((request) => request.path === '/v1/chat/completions');
    expect(short.text).toBe(first!.responseBody);
    expect(long.text).toBe(second!.responseBody);
    expect(long.text).toContain('data: [DONE]');
    expect(long.headers.get('content-type')).toContain('text/event-stream');
    // Sent as it came when it fits: the very bytes.
    expect(first!.body).toEqual({ model: SMALL_MODEL.name, stream: true, messages: [{ role: 'user', content: 'hello there' }] });
  });

  it('passes the other routes through unchanged: /v1/models, /api/tags, /api/show, and a route it does not know', async () => {
    harness = await startProxyHarness({ fake: { openAIContextShape: 'vllm' } });
    for (const [method, path, body] of [
      ['GET', '/v1/models', undefined],
      ['GET', '/api/tags', undefined],
      ['POST', '/api/show', JSON.stringify({ model: SMALL_MODEL.name })],
      ['GET', '/api/version', undefined],
      ['POST', '/v1/embeddings?x=1', '{"input":"a"}'],
    ] as const) {
      const direct = await fetch(`${harness.fake.url}${path}`, { method, ...(body ? { body } : {}) });
      const proxied = await fetch(`${harness.proxy.url}${path}`, { method, ...(body ? { body } : {}) });
      expect(proxied.status, path).toBe(direct.status);
      expect(await proxied.text(), path).toBe(await direct.text());
      expect(proxied.headers.get('x-ollm-context')).toBeNull();
    }
    expect(harness.fake.requests.filter((request) => request.path === '/api/show').map((request) => request.body)).toEqual([
      { model: SMALL_MODEL.name },
      { model: SMALL_MODEL.name },
    ]);
  });

  it('forwards the Authorization header and never logs it', async () => {
    harness = await startProxyHarness();
    const client = new OpenAI({ baseURL: `${harness.proxy.url}/v1`, apiKey: 'sk-never-logged-0123456789', maxRetries: 0 });
    await client.chat.completions.create({ model: SMALL_MODEL.name, messages: longConversation(30) as never, max_tokens: 50 });
    const chat = harness.fake.requests.find((request) => request.path === '/v1/chat/completions')!;
    expect(chat.headers['authorization']).toBe('Bearer sk-never-logged-0123456789');
    expect(harness.logs.length).toBeGreaterThan(0);
    expect(harness.logs.join('\n')).not.toContain('sk-never-logged');
  });
});

describe('ollm serve: faults', () => {
  it('answers 502 in the API shape when the upstream is down, without hanging', async () => {
    harness = await startProxyHarness({ upstream: `http://127.0.0.1:${await closedPort()}` });
    const openai = new OpenAI({ baseURL: `${harness.proxy.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const error = await openai.chat.completions
      .create({ model: SMALL_MODEL.name, messages: [{ role: 'user', content: 'hi' }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
    expect((error as InstanceType<typeof OpenAI.APIError>).message).toMatch(/not reachable \(ECONNREFUSED\); is the model server running\?/);
    const ollama = await rawPost(`${harness.proxy.url}/api/chat`, { model: SMALL_MODEL.name, messages: [{ role: 'user', content: 'hi' }] });
    expect(ollama.status).toBe(502);
    expect(JSON.parse(ollama.text)).toEqual({ error: expect.stringMatching(/^ollm serve: the upstream http:\/\/127\.0\.0\.1:\d+ is not reachable/) });
    const other = await fetch(`${harness.proxy.url}/api/tags`);
    expect(other.status).toBe(502);
    // Also when the window must be learnt first (a conversation over the fallback window).
    const long = await rawPost(`${harness.proxy.url}/api/chat`, {
      model: SMALL_MODEL.name,
      messages: longConversation(60).filter((message) => message['role'] !== 'tool' && !message['tool_calls']),
    });
    expect(long.status).toBe(502);
  });

  it('answers bad JSON with 400 naming the line and column, and sends nothing upstream', async () => {
    harness = await startProxyHarness();
    const openai = await rawPost(`${harness.proxy.url}/v1/chat/completions`, '{"model": "small:4k",\n  "messages": [ {"role": "user", "content": "hi"} ,, ]}');
    expect(openai.status).toBe(400);
    expect(JSON.parse(openai.text)).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringMatching(/^request body: line 2, column \d+: malformed JSON/) },
    });
    const ollama = await rawPost(`${harness.proxy.url}/api/chat`, '{"model": "small:4k", "messages": [');
    expect(ollama.status).toBe(400);
    expect(JSON.parse(ollama.text)).toEqual({ error: expect.stringMatching(/^request body: line 1, column \d+: malformed JSON/) });
    expect(harness.fake.requests).toHaveLength(0);
  });

  it('refuses a conversation that cannot fit whatever is compacted, with nothing sent upstream', async () => {
    harness = await startProxyHarness();
    const huge = Array.from({ length: 3000 }, (_, index) => `word${index}`).join(' ');
    const response = await rawPost(`${harness.proxy.url}/v1/chat/completions`, { model: SMALL_MODEL.name, messages: [{ role: 'user', content: huge }] });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({
      error: {
        type: 'context_length_exceeded',
        // OpenAI's words first (what agents look for to compact and retry), then the proxy's account.
        message: expect.stringMatching(
          /^This model's maximum context length is 4096 tokens\. However, your messages resulted in \d+ tokens\. ollm serve: the messages cannot fit the window of small:4k: [\d,]+ tokens.*over the 3,482-token budget \(a 4,096-token window less 614/,
        ),
      },
    });
    expect(harness.fake.requests.filter((request) => request.path === '/v1/chat/completions')).toHaveLength(0);
    // The operator sees the refusal too.
    expect(harness.logs.join('\n')).toMatch(/ollm serve: POST \/v1\/chat\/completions refused with 400: the messages cannot fit the window of small:4k/);
  });

  it('takes a reply limit over the window as a wish: the request is served, the limit sent is what the window leaves', async () => {
    harness = await startProxyHarness();
    for (const [field, messages] of [
      ['max_tokens', [{ role: 'user', content: 'hi' }]],
      ['max_completion_tokens', longConversation(30)],
    ] as const) {
      const response = await rawPost(`${harness.proxy.url}/v1/chat/completions`, { model: SMALL_MODEL.name, [field]: 32_000, messages });
      expect(response.status, field).toBe(200);
      const fields = contextFields(response.headers.get('x-ollm-context'));
      const [asked, sent] = fields['reply-limit']!.split('->').map(Number);
      expect(asked).toBe(32_000);
      const [, after] = fields['tokens']!.split('->').map(Number);
      // Prompt and reply limit together are the window at most; the reserve is still held for the reply.
      expect(after! + sent!).toBeLessThanOrEqual(4096);
      expect(sent).toBeGreaterThanOrEqual(Number(fields['reserve']));
      const forwarded = harness.fake.requests.filter((request) => request.path === '/v1/chat/completions').at(-1)!;
      expect((forwarded.body as Record<string, unknown>)[field]).toBe(sent);
    }
    expect(harness.logs.join('\n')).toMatch(/reply limit 32,000 -> [\d,]+ \(what the 4,096-token window leaves\)/);
  });

  it("caps a --reply-reserve over half a model's window, with one warning, and still serves it", async () => {
    harness = await startProxyHarness({ proxy: { replyReserve: 3000 } });
    for (let index = 0; index < 2; index += 1) {
      const response = await rawPost(`${harness.proxy.url}/v1/chat/completions`, { model: SMALL_MODEL.name, messages: longConversation(30) });
      expect(response.status).toBe(200);
      expect(contextFields(response.headers.get('x-ollm-context'))['reserve']).toBe('2048');
    }
    expect(
      harness.logs.filter((line) => line.includes('--reply-reserve 3,000 is over half the 4,096-token window of small:4k; 2,048 is kept for its replies')),
    ).toHaveLength(1);
  });

  it('sends a conversation it cannot read as it came, for the upstream to judge', async () => {
    harness = await startProxyHarness();
    const body = {
      model: SMALL_MODEL.name,
      messages: [
        { role: 'tool', tool_call_id: 'nobody', content: 'orphan' },
        { role: 'user', content: 'hi' },
      ],
    };
    const response = await rawPost(`${harness.proxy.url}/v1/chat/completions`, body);
    expect(response.status).toBe(200);
    expect(contextFields(response.headers.get('x-ollm-context'))).toMatchObject({ action: 'unread', window: '4096' });
    expect(response.headers.get('x-ollm-context')).not.toContain('tokens=');
    expect(harness.fake.requests.find((request) => request.path === '/v1/chat/completions')!.body).toEqual(body);
    expect(harness.logs.join('\n')).toMatch(/sent as it came \(ollm could not read it: request body: message 0/);
  });

  it('cancels the upstream request when the client goes away mid-stream', async () => {
    let upstreamClosed!: () => void;
    const closed = new Promise<void>((resolve) => (upstreamClosed = resolve));
    let received!: () => void;
    const arrived = new Promise<void>((resolve) => (received = resolve));
    // An upstream that starts a stream and never ends it.
    const upstream = createServer((request: IncomingMessage, response) => {
      request.resume();
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: {"choices":[{"delta":{"content":"Hel"}}]}\n\n');
      response.on('close', () => upstreamClosed());
      received();
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => upstream.close(() => resolve())));
    harness = await startProxyHarness({ upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`, proxy: { window: 4096 } });
    const controller = new AbortController();
    const response = await fetch(`${harness.proxy.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('"Hel"');
    await arrived;
    controller.abort();
    // Resolves only once the upstream saw its request closed; a proxy that kept it would time the test out.
    await closed;
  });

  it('compacts one conversation once when the same request arrives twice at the same time', async () => {
    const counting = countingFold();
    harness = await startProxyHarness({ stages: [counting.stage] });
    const client = new Ollama({ host: harness.proxy.url });
    const messages = longConversation(40).map((message) =>
      message['role'] === 'tool'
        ? { role: 'tool', tool_name: 'read_file', content: message['content'] as string }
        : message['tool_calls']
          ? { role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_file', arguments: { path: 'a.ts' } } }] }
          : (message as { role: string; content: string }),
    );
    const [a, b] = await Promise.all([
      client.chat({ model: SMALL_MODEL.name, messages, options: { num_ctx: 4096 } }),
      client.chat({ model: SMALL_MODEL.name, messages, options: { num_ctx: 4096 } }),
    ]);
    expect(a.message.content.length).toBeGreaterThan(0);
    expect(b.message.content.length).toBeGreaterThan(0);
    expect(counting.compactions).toBe(1);
    const sent = harness.fake.requests.filter((request) => request.path === '/api/chat');
    expect(sent).toHaveLength(2);
    expect(sent[0]!.body).toEqual(sent[1]!.body);
  });
});
