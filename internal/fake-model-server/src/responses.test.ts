import OpenAI from 'openai';
import type { ResponseInputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { afterEach, describe, expect, it } from 'vitest';
import { chatRequests } from './chat-requests.js';
import { startFakeModelServer, type FakeModelServer } from './fake-model-server.js';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const clientOf = (fake: FakeModelServer) => new OpenAI({ baseURL: `${fake.url}/v1`, apiKey: 'x', maxRetries: 0 });
const words = (count: number) => Array.from({ length: count }, (_, index) => `w${index}`).join(' ');

const tools = [
  {
    type: 'function' as const,
    name: 'read_file',
    description: 'read',
    strict: false,
    parameters: { type: 'object', properties: { path: { type: 'string' } } },
  },
];

/** A conversation with every item kind the server reads: messages of each role, a call, its output, reasoning. */
const items: ResponseInputItem[] = [
  { type: 'message', role: 'developer', content: 'be terse' },
  { role: 'user', content: 'read a.ts please' },
  { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'I should read the file first.' }] },
  { type: 'function_call', call_id: 'call_9', name: 'read_file', arguments: '{"path":"a.ts"}' },
  { type: 'function_call_output', call_id: 'call_9', output: 'export const a = 1;' },
  { type: 'message', id: 'msg_0', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'a.ts exports a.', annotations: [] }] },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'and what is b?' }] },
];

describe('/v1/responses (OpenAI Responses API)', () => {
  it('answers a string input the client reads as output_text, with usage.input_tokens the count it recorded', async () => {
    server = await startFakeModelServer();
    const response = await clientOf(server).responses.create({
      model: 'fake-llama:8b',
      instructions: 'You are terse.',
      input: 'hello',
      max_output_tokens: 200,
    });
    expect(response.output_text).toBe('fake reply to: hello');
    expect(response).toMatchObject({ id: 'resp_fake_1', object: 'response', status: 'completed', model: 'fake-llama:8b', instructions: 'You are terse.' });
    expect(response.output).toEqual([
      {
        type: 'message',
        id: 'msg_fake_1',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'fake reply to: hello', annotations: [], logprobs: [] }],
      },
    ]);
    const [request] = chatRequests(server);
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/responses',
      protocol: 'openai-responses',
      model: 'fake-llama:8b',
      stream: false,
      maxTokens: 200,
    });
    expect((request!.body as { input: string }).input).toBe('hello');
    // The instructions are counted as a system message before the input.
    expect(request!.messages.map((message) => [message.role, message.parts])).toEqual([
      ['system', [{ type: 'text', text: 'You are terse.' }]],
      ['user', [{ type: 'text', text: 'hello' }]],
    ]);
    expect(response.usage).toMatchObject({
      input_tokens: request!.promptTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens_details: { reasoning_tokens: 0 },
    });
    expect(response.usage!.output_tokens).toBeGreaterThan(0);
    expect(response.usage!.total_tokens).toBe(response.usage!.input_tokens + response.usage!.output_tokens);
  });

  it('reads an item array (messages of every role, function_call, function_call_output, reasoning) as core messages and counts them', async () => {
    server = await startFakeModelServer();
    const client = clientOf(server);
    const response = await client.responses.create({ model: 'fake-llama:8b', input: items });
    expect(response.output_text).toBe('fake reply to: and what is b?');
    const [request] = chatRequests(server);
    expect(request!.messages.map((message) => [message.role, message.parts])).toEqual([
      ['system', [{ type: 'text', text: 'be terse' }]],
      ['user', [{ type: 'text', text: 'read a.ts please' }]],
      ['assistant', [{ type: 'reasoning', text: 'I should read the file first.' }]],
      ['assistant', [{ type: 'tool-call', callId: 'call_9', name: 'read_file', input: { path: 'a.ts' }, rawInput: '{"path":"a.ts"}' }]],
      ['tool', [{ type: 'tool-result', callId: 'call_9', output: 'export const a = 1;' }]],
      ['assistant', [{ type: 'text', text: 'a.ts exports a.' }]],
      ['user', [{ type: 'text', text: 'and what is b?' }]],
    ]);
    expect(response.usage!.input_tokens).toBe(request!.promptTokens);
    // The call and its output are counted: the same talk without them is smaller.
    await client.responses.create({ model: 'fake-llama:8b', input: items.filter((item) => !('type' in item) || !item.type?.startsWith('function_call')) });
    expect(chatRequests(server)[1]!.promptTokens).toBeLessThan(request!.promptTokens);
  });

  it('streams events the client assembles into the same response, through create({stream:true}) and responses.stream()', async () => {
    server = await startFakeModelServer({ reply: () => 'the quick brown fox jumps' });
    const client = clientOf(server);
    const plain = await client.responses.create({ model: 'fake-llama:8b', input: items });

    const events: ResponseStreamEvent[] = [];
    for await (const event of await client.responses.create({ model: 'fake-llama:8b', input: items, stream: true })) events.push(event);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const types = events.map((event) => event.type);
    expect(types.filter((type) => type !== 'response.output_text.delta')).toEqual([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    const deltas = events.flatMap((event) => (event.type === 'response.output_text.delta' ? [event.delta] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(plain.output_text);
    const completed = events.at(-1);
    if (completed?.type !== 'response.completed') throw new Error('no response.completed');
    expect(completed.response.output).toEqual(plain.output.map((item) => ({ ...item, id: item.id!.replace('_1', '_2') })));
    expect(completed.response.usage).toEqual(plain.usage);
    expect(chatRequests(server)[1]).toMatchObject({ stream: true, promptTokens: plain.usage!.input_tokens });
    expect(server.requests[1]!.responseBody).toContain('event: response.completed\ndata: ');

    const stream = client.responses.stream({ model: 'fake-llama:8b', input: items });
    const snapshots: string[] = [];
    stream.on('response.output_text.delta', (event) => snapshots.push(event.snapshot));
    const final = await stream.finalResponse();
    expect(snapshots.at(-1)).toBe('the quick brown fox jumps');
    expect(final.output).toMatchObject([{ type: 'message', content: [{ type: 'output_text', text: 'the quick brown fox jumps' }] }]);
    expect(final.usage!.input_tokens).toBe(plain.usage!.input_tokens);
  });

  it('makes function calls (toolCalls option) the client reads, offered as top-level tool names, streamed and not', async () => {
    server = await startFakeModelServer({
      toolCalls: (request) => (request.toolNames?.includes('read_file') ? [{ name: 'read_file', arguments: { path: 'src/some/long/path/b.ts' } }] : undefined),
    });
    const client = clientOf(server);
    const response = await client.responses.create({ model: 'fake-llama:8b', tools, input: 'read b.ts' });
    expect(response.output).toEqual([
      {
        type: 'function_call',
        id: 'fc_fake_1',
        call_id: 'call_fake_1',
        name: 'read_file',
        arguments: '{"path":"src/some/long/path/b.ts"}',
        status: 'completed',
      },
    ]);
    expect(response.output_text).toBe('');
    expect(response.tools).toEqual(tools);
    expect(chatRequests(server)[0]!.promptTokens).toBe(response.usage!.input_tokens);

    const stream = client.responses.stream({ model: 'fake-llama:8b', tools, input: 'read b.ts' });
    const argumentDeltas: string[] = [];
    stream.on('response.function_call_arguments.delta', (event) => argumentDeltas.push(event.delta));
    const final = await stream.finalResponse();
    expect(argumentDeltas.length).toBeGreaterThan(1);
    expect(final.output).toMatchObject([{ type: 'function_call', call_id: 'call_fake_2', name: 'read_file', arguments: '{"path":"src/some/long/path/b.ts"}' }]);

    // Without tools offered, a text answer.
    const text = await client.responses.create({ model: 'fake-llama:8b', input: 'read b.ts' });
    expect(text.output.map((item) => item.type)).toEqual(['message']);
  });

  it('reports a reply cut at max_output_tokens as incomplete, streamed and not', async () => {
    server = await startFakeModelServer({ reply: () => words(100) });
    const client = clientOf(server);
    const response = await client.responses.create({ model: 'fake-llama:8b', input: 'talk', max_output_tokens: 16 });
    expect(response).toMatchObject({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, max_output_tokens: 16 });
    expect(response.usage!.output_tokens).toBeLessThanOrEqual(16);
    const events: ResponseStreamEvent[] = [];
    for await (const event of await client.responses.create({ model: 'fake-llama:8b', input: 'talk', max_output_tokens: 16, stream: true })) events.push(event);
    expect(events.at(-1)).toMatchObject({ type: 'response.incomplete', response: { status: 'incomplete', usage: response.usage } });
  });

  it('refuses an input over the window (enforceWindow) with a 400 the client throws as BadRequestError, context_length_exceeded', async () => {
    server = await startFakeModelServer({ models: [{ name: 'm', contextLength: 1000 }], enforceWindow: true });
    const client = clientOf(server);
    const refused = await client.responses.create({ model: 'm', input: words(600), max_output_tokens: 500 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.BadRequestError);
    expect(refused).toMatchObject({ status: 400, code: 'context_length_exceeded', param: 'input', type: 'invalid_request_error' });
    expect((refused as Error).message).toMatch(/maximum context length is 1000 tokens/);
    const streamed = await client.responses.create({ model: 'm', input: words(600), stream: true }).catch((error: unknown) => error);
    expect(streamed).toBeInstanceOf(OpenAI.BadRequestError);
    const fits = await client.responses.create({ model: 'm', input: words(10), max_output_tokens: 100 });
    expect(fits.status).toBe('completed');
    expect(server.requests.map((request) => [request.path, request.maxTokens, request.responseBody === undefined])).toEqual([
      ['/v1/responses', 500, true],
      ['/v1/responses', undefined, true],
      ['/v1/responses', 100, false],
    ]);
  });

  it('answers a request without input with a 400 in OpenAI shape', async () => {
    server = await startFakeModelServer();
    const response = await fetch(`${server.url}/v1/responses`, { method: 'POST', body: JSON.stringify({ model: 'fake-llama:8b' }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { message: 'model and input are required', type: 'invalid_request_error' } });
  });
});
