import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compactWith } from '@ollm/core';
import { chatRequests, startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createGoalAwareProvider } from './index.js';
import { buildConversation } from './test-support/build-conversation.js';
import { createModel } from './test-support/fake-models.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

/**
 * The summariser's own requests obey the window rule against the summariser model's window:
 * prompt + the reply limit it asks for fit, with checkpoints to age and a span to split.
 */
describe('goal-aware requests fit the summariser window with their reply limit', () => {
  for (const window of [512, 1_024, 2_048]) {
    it(`at a ${window}-token summariser window`, async () => {
      await server.reset();
      const provider = createGoalAwareProvider({ modelContextTokens: window, preserveRecent: 200 });
      const model = createModel(server, 'ollama');
      let messages = buildConversation(8, `w${window}`);
      // Three compressions: the later ones age the earlier checkpoints (recompress requests).
      for (let round = 0; round < 3; round += 1) {
        messages = [
          ...(await compactWith(provider, messages, { config: { limit: 1_500 }, context: { model } })).messages,
          ...buildConversation(4, `w${window}-r${round}`).slice(1),
        ];
      }
      const requests = chatRequests(server);
      expect(requests.length).toBeGreaterThan(3);
      for (const request of requests) {
        expect(request.maxTokens).toBeDefined();
        expect(request.promptTokens + request.maxTokens!).toBeLessThanOrEqual(window);
      }
    });
  }
});
