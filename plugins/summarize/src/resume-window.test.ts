import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWith, type Message } from '@ollm/core';
import { chatRequests, startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createSummarizeProvider } from './index.js';
import { createModel } from './test-support/fake-models.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

function conversation(turns: number): Message[] {
  const messages: Message[] = [{ id: 's', role: 'system', parts: [{ type: 'text', text: 'You are careful.' }] }];
  for (let turn = 0; turn < turns; turn += 1) {
    messages.push({ id: `u${turn}`, role: 'user', parts: [{ type: 'text', text: `Step ${turn}: fix src/module_${turn}.py so negative values work.` }] });
    messages.push({
      id: `a${turn}`,
      role: 'assistant',
      parts: [{ type: 'text', text: `In src/module_${turn}.py I changed parse_value to accept a sign. `.repeat(12) }],
    });
  }
  return messages;
}

/** The RESUME requests obey the window rule against the model's window: prompt + reply limit fit it. */
describe('summarize requests fit the model window with their reply limit', () => {
  for (const window of [512, 1_024]) {
    it(`at a ${window}-token window, the conversation split into parts`, async () => {
      await server.reset();
      const provider = createSummarizeProvider({ modelContextTokens: window });
      await compactWith(provider, conversation(20), { config: { limit: 800 }, context: { model: createModel(server, 'ollama') } });
      const requests = chatRequests(server);
      expect(requests.length).toBeGreaterThan(2);
      for (const request of requests) expect(request.promptTokens + request.maxTokens!).toBeLessThanOrEqual(window);
    });
  }
});
