import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { CONTEXT_HEADER } from './context-report.js';
import { startProxyHarness, type ProxyHarness } from '../test-support/proxy-harness.js';
import { contextFields } from '../test-support/agent-conversation.js';

let harness: ProxyHarness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const MODEL = { name: 'coder:16k', family: 'qwen3', parameterSize: '30B', contextLength: 16_384 };
const words = (count: number, seed: string) => Array.from({ length: count }, (_, index) => `${seed}${index % 97}`).join(' ');

// An agent's tool set the size of Claude Code's: two dozen tools, pages of usage notes each (~15,000 tokens).
const TOOLS: Anthropic.Tool[] = Array.from({ length: 24 }, (_, index) => ({
  name: `Tool${index}`,
  description: `Does task ${index} in the repository. ${words(40, `why${index}-`)}.\n\nUsage notes:\n${words(400, `note${index}-`)}`,
  input_schema: {
    type: 'object',
    properties: { target: { type: 'string', description: `What tool ${index} works on. ${words(60, `arg${index}-`)}` } },
    required: ['target'],
  },
}));

describe('ollm serve and an agent whose tools alone nearly fill a local window', () => {
  it("shortens the tools' descriptions (names and schemas kept, the same bytes each request) instead of refusing", async () => {
    harness = await startProxyHarness({ fake: { models: [MODEL] } });
    const client = new Anthropic({ baseURL: harness.proxy.url, apiKey: 'sk-ant-serve-test', maxRetries: 0 });
    const messages: Anthropic.MessageParam[] = [{ role: 'user', content: 'Fix the failing test in src/date.ts. The codename is KESTREL-9.' }];
    const headers: Record<string, string>[] = [];
    for (let turn = 0; turn < 3; turn += 1) {
      const { data, response } = await client.messages
        .create({ model: MODEL.name, max_tokens: 32_000, tools: TOOLS, messages }, { timeout: 60_000 })
        .withResponse();
      headers.push(contextFields(response.headers.get(CONTEXT_HEADER)));
      messages.push(
        { role: 'assistant', content: data.content.length > 0 ? data.content : [{ type: 'text', text: 'ok' }] },
        { role: 'user', content: `next ${turn}` },
      );
    }
    const chats = harness.fake.requests.filter((request) => request.path === '/v1/messages');
    expect(chats).toHaveLength(3);
    // The fake server refuses anything over its window: none was.
    expect(chats.every((request) => request.fault === undefined && request.responseBody !== undefined)).toBe(true);
    const sent = chats.map((request) => (request.body as { tools: Anthropic.Tool[] }).tools);
    expect(sent[0]!.map((tool) => tool.name)).toEqual(TOOLS.map((tool) => tool.name));
    expect(sent[0]!.map((tool) => tool.input_schema.required)).toEqual(TOOLS.map((tool) => tool.input_schema.required));
    expect(sent[0]![0]!.description!.startsWith('Does task 0 in the repository.')).toBe(true);
    expect(JSON.stringify(sent[1])).toBe(JSON.stringify(sent[0]));
    expect(JSON.stringify(sent[2])).toBe(JSON.stringify(sent[0]));
    const [asked, shortened] = headers[0]!['tools']!.split('->').map(Number);
    expect(asked).toBeGreaterThan(14_000);
    expect(shortened).toBeLessThanOrEqual(Math.floor((16_384 - 2_457) * 0.35));
    expect(harness.logs.filter((line) => line.includes('their descriptions are shortened'))).toHaveLength(1);
  });
});
