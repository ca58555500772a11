import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_HEADER } from './context-report.js';
import { SMALL_MODEL, startProxyHarness, type ProxyHarness } from '../test-support/proxy-harness.js';
import { contextFields, fileText, question } from '../test-support/agent-conversation.js';

let harness: ProxyHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

type Item = Record<string, unknown>;
type Sent = { instructions?: string; max_output_tokens?: number; input: Item[] };

/** Every function_call_output answers a function_call sent before it. */
function unpaired(items: readonly Item[]): string[] {
  const open = new Set<string>();
  const problems: string[] = [];
  for (const item of items) {
    if (item['type'] === 'function_call') open.add(item['call_id'] as string);
    if (item['type'] === 'function_call_output' && !open.delete(item['call_id'] as string)) problems.push(`output ${String(item['call_id'])} without its call`);
  }
  return problems;
}

describe('ollm serve with the openai client (/v1/responses, stateless as Codex sends it)', () => {
  it('keeps a 50-step tool loop inside a 4,096 window, streamed and not, the instructions and the task as sent', async () => {
    harness = await startProxyHarness();
    const client = new OpenAI({ baseURL: `${harness.proxy.url}/v1`, apiKey: 'sk-serve-test-key', maxRetries: 0 });
    const input: Item[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: question(0) }] }];
    for (let step = 0; step < 50; step += 1) {
      const params = {
        model: SMALL_MODEL.name,
        instructions: 'You are Codex, a coding agent.',
        store: false,
        max_output_tokens: 32_000,
        input: input as never,
      };
      let text: string;
      if (step % 2 === 0) {
        const { data, response } = await client.responses.create(params).withResponse();
        expect(contextFields(response.headers.get(CONTEXT_HEADER))['action']).toMatch(/fits|reused|compacted/);
        text = data.output_text;
      } else {
        const stream = client.responses.stream(params);
        text = (await stream.finalResponse()).output_text;
      }
      input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: text || 'Reading on.' }] });
      input.push({ type: 'function_call', call_id: `call_${step}`, name: 'shell', arguments: JSON.stringify({ command: ['cat', `src/module-${step}.ts`] }) });
      input.push({ type: 'function_call_output', call_id: `call_${step}`, output: fileText(step) });
    }
    const chats = harness.fake.requests.filter((request) => request.path === '/v1/responses');
    expect(chats).toHaveLength(50);
    for (const [step, request] of chats.entries()) {
      const sent = request.body as Sent;
      expect(request.promptTokens + sent.max_output_tokens!, `step ${step}`).toBeLessThanOrEqual(SMALL_MODEL.contextLength!);
      expect(sent.instructions).toBe('You are Codex, a coding agent.');
      expect(sent.input[0]).toEqual(input[0]);
      expect(unpaired(sent.input), `step ${step}`).toEqual([]);
    }
    expect(harness.reports.some((report) => report.action === 'compacted')).toBe(true);
    expect(harness.reports.some((report) => report.action === 'reused')).toBe(true);
  });

  it('sends a request that continues a stored response as it came, with one warning', async () => {
    harness = await startProxyHarness();
    const body = { model: SMALL_MODEL.name, previous_response_id: 'resp_1', input: [{ role: 'user', content: question(1) }] };
    for (let index = 0; index < 2; index += 1) {
      await fetch(`${harness.proxy.url}/v1/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    }
    const sent = harness.fake.requests.filter((request) => request.path === '/v1/responses');
    expect(sent.map((request) => request.body)).toEqual([body, body]);
    expect(harness.logs.filter((line) => line.includes('previous_response_id'))).toHaveLength(1);
  });
});
