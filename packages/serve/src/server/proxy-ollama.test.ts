import { Ollama, type Message as OllamaMessage } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { contextFields, fileText, pairingProblems, question } from '../test-support/agent-conversation.js';
import { SMALL_MODEL, startProxyHarness, type ProxyHarness } from '../test-support/proxy-harness.js';

const REPLY_LIMIT = 200;
// Ollama's tool calls carry no ids: a tool message answers the earliest open call of its name.
const ollamaCalls = (message: Record<string, unknown>) =>
  ((message['tool_calls'] as { function: { name: string } }[] | undefined) ?? []).map((call) => call.function.name);
const ollamaResult = (message: Record<string, unknown>) => message['tool_name'] as string | undefined;

let harness: ProxyHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe('ollm serve with the ollama client', () => {
  it('keeps a 200-turn streamed conversation inside num_ctx 4,096, tool calls paired, the stream as the upstream sent it', async () => {
    harness = await startProxyHarness();
    const client = new Ollama({ host: harness.proxy.url });
    const messages: OllamaMessage[] = [{ role: 'system', content: 'You are a careful coding agent. Read files before changing them.' }];
    const streamed: string[] = [];
    for (let turn = 0; turn < 200; turn += 1) {
      messages.push({ role: 'user', content: question(turn) });
      if (turn % 2 === 0) {
        messages.push({ role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_file', arguments: { path: `src/module-${turn % 17}.ts` } } }] });
        messages.push({ role: 'tool', tool_name: 'read_file', content: fileText(turn) });
      }
      const stream = await client.chat({ model: SMALL_MODEL.name, messages, stream: true, options: { num_ctx: 4096, num_predict: REPLY_LIMIT } });
      let reply = '';
      for await (const chunk of stream) reply += chunk.message.content;
      streamed.push(reply);
      messages.push({ role: 'assistant', content: reply });
    }
    const chats = harness.fake.requests.filter((request) => request.path === '/api/chat');
    expect(chats).toHaveLength(200);
    expect(chats.every((request) => request.fault === undefined && request.promptTokens + REPLY_LIMIT <= 4096)).toBe(true);
    chats.forEach((request, turn) => {
      const sent = (request.body as { messages: Record<string, unknown>[] }).messages;
      expect(pairingProblems(sent, ollamaCalls, ollamaResult)).toEqual([]);
      expect(sent.filter((message) => message['role'] === 'user').at(-1)?.['content']).toBe(question(turn));
      // The client read exactly the upstream's reply.
      const upstreamText = (request.responseBody ?? '')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => (JSON.parse(line) as { message?: { content?: string } }).message?.content ?? '')
        .join('');
      expect(streamed[turn]).toBe(upstreamText);
    });
    const actions = harness.reports.map((report) => report.action);
    expect(actions.filter((action) => action === 'compacted').length).toBeGreaterThan(5);
    expect(actions.filter((action) => action === 'reused').length).toBeGreaterThan(actions.filter((action) => action === 'compacted').length);
    expect(harness.reports.every((report) => report.window === 4096 && report.windowSource === 'request' && report.reserve === REPLY_LIMIT)).toBe(true);
  });

  it('learns the window from /api/show when a request sets no num_ctx (Ollama then runs 4,096 at most)', async () => {
    harness = await startProxyHarness({ fake: { models: [{ name: 'big:32k', contextLength: 32_768 }, SMALL_MODEL] } });
    const client = new Ollama({ host: harness.proxy.url });
    const response = await fetch(`${harness.proxy.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'big:32k', stream: false, messages: [{ role: 'user', content: 'hello' }] }),
    });
    expect(response.status).toBe(200);
    expect(contextFields(response.headers.get('x-ollm-context'))).toMatchObject({ action: 'fits', window: '4096', 'window-source': 'server', reserve: '614' });
    await client.chat({ model: SMALL_MODEL.name, messages: [{ role: 'user', content: 'hi' }], options: { num_ctx: 2048 } });
    expect(harness.reports.at(-1)).toMatchObject({ window: 2048, windowSource: 'request' });
    // Asked once per model.
    expect(harness.fake.requests.filter((request) => request.path === '/api/show')).toHaveLength(2);
  });

  it('learns from the prompt sizes the server reports when its tokenizer counts 30% more, so requests still fit', async () => {
    // The fake server reports (and judges the window by) 1.3x the exact o200k count, as a model with another tokenizer would.
    harness = await startProxyHarness({ fake: { reportedPromptTokenScale: 1.3 } });
    const client = new Ollama({ host: harness.proxy.url });
    const messages: OllamaMessage[] = [{ role: 'system', content: 'You are a careful coding agent.' }];
    for (let turn = 0; turn < 80; turn += 1) {
      messages.push({ role: 'user', content: question(turn) });
      messages.push({ role: 'assistant', content: '', tool_calls: [{ function: { name: 'read_file', arguments: { path: 'a.ts' } } }] });
      messages.push({ role: 'tool', tool_name: 'read_file', content: fileText(turn) });
      const stream = await client.chat({ model: SMALL_MODEL.name, messages, stream: true, options: { num_ctx: 4096, num_predict: REPLY_LIMIT } });
      let reply = '';
      for await (const chunk of stream) reply += chunk.message.content;
      messages.push({ role: 'assistant', content: reply });
    }
    const chats = harness.fake.requests.filter((request) => request.path === '/api/chat');
    expect(chats).toHaveLength(80);
    // None refused: what the server counted plus the reply limit always fit its window.
    expect(chats.every((request) => Math.round(request.promptTokens * 1.3) + REPLY_LIMIT <= 4096)).toBe(true);
    expect(harness.reports.at(-1)!.calibration).toBeGreaterThan(1.25);
    expect(harness.reports.at(-1)!.calibration).toBeLessThan(1.35);
  });
});
