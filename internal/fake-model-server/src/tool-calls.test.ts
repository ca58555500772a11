import OpenAI from 'openai';
import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const tools = [
  { type: 'function' as const, function: { name: 'read_file', description: 'read', parameters: { type: 'object', properties: { path: { type: 'string' } } } } },
];

describe('toolCalls', () => {
  it('makes tool calls the openai client reads, streamed and not, and answers in text once the option says none', async () => {
    let calls = 2;
    server = await startFakeModelServer({
      toolCalls: (request) =>
        request.toolNames?.includes('read_file') && calls-- > 0 ? [{ name: 'read_file', arguments: { path: `a${calls}.ts` } }] : undefined,
    });
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'x', maxRetries: 0 });
    const first = await client.chat.completions.create({ model: 'fake-llama:8b', tools, messages: [{ role: 'user', content: 'read it' }] });
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(first.choices[0]!.message.content).toBeNull();
    expect(first.choices[0]!.message.tool_calls).toEqual([
      { id: 'call_fake_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a1.ts"}' } },
    ]);
    const stream = await client.chat.completions.create({ model: 'fake-llama:8b', tools, stream: true, messages: [{ role: 'user', content: 'read it' }] });
    const deltas: unknown[] = [];
    let finish: string | null = null;
    for await (const chunk of stream) {
      deltas.push(...(chunk.choices[0]?.delta.tool_calls ?? []));
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(finish).toBe('tool_calls');
    expect(deltas).toEqual([{ index: 0, id: 'call_fake_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"a0.ts"}' } }]);
    const last = await client.chat.completions.create({ model: 'fake-llama:8b', tools, messages: [{ role: 'user', content: 'read it' }] });
    expect(last.choices[0]!.finish_reason).toBe('stop');
  });

  it('makes tool calls the ollama client reads, with arguments as an object', async () => {
    server = await startFakeModelServer({ toolCalls: () => [{ name: 'read_file', arguments: { path: 'b.ts' } }] });
    const client = new Ollama({ host: server.url });
    const response = await client.chat({ model: 'fake-llama:8b', tools, messages: [{ role: 'user', content: 'read it' }] });
    expect(response.message.tool_calls).toEqual([{ function: { name: 'read_file', arguments: { path: 'b.ts' } } }]);
    const stream = await client.chat({ model: 'fake-llama:8b', tools, stream: true, messages: [{ role: 'user', content: 'read it' }] });
    const calls: unknown[] = [];
    for await (const chunk of stream) calls.push(...(chunk.message.tool_calls ?? []));
    expect(calls).toEqual([{ function: { name: 'read_file', arguments: { path: 'b.ts' } } }]);
  });
});
