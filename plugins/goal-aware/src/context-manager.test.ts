import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointOf, isCheckpointMessage } from '@ollm/core';
import { ContextManager, ProviderRegistry, type ContextEventName } from '@ollm/runtime';
import { createGoalAwareProvider } from './index.js';
import { buildConversation } from './test-support/build-conversation.js';
import { chatRequests, startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createModel } from './test-support/fake-models.js';

let server: FakeModelServer;
beforeAll(async () => {
  server = await startFakeModelServer();
});
afterAll(() => server.close());

describe('goal-aware inside the context runtime', () => {
  it('runs automatically, creates and ages checkpoints, folds users explicitly, and stays in the window', async () => {
    const registry = new ProviderRegistry();
    registry.register(createGoalAwareProvider({ summaryMaxTokens: 400, preserveRecent: 800, userShare: 0.1 }));
    const manager = new ContextManager({
      contextSize: 6000,
      registry,
      autoPipeline: 'goal-aware',
      model: createModel(server, 'ollama'),
      systemPrompt: 'You are careful.',
    });
    const seen: ContextEventName[] = [];
    for (const name of ['checkpoint-created', 'checkpoint-aged', 'user-messages-folded', 'compressed', 'compression-error'] as const)
      manager.on(name, () => seen.push(name));
    manager.setGoal('Make every module handle negative values');
    for (let round = 0; round < 6; round += 1) {
      for (const message of buildConversation(6, `round${round}`).slice(1)) {
        manager.addMessage(message);
        await manager.maybeCompress();
      }
    }
    expect(seen).not.toContain('compression-error');
    expect(seen).toContain('checkpoint-created');
    expect(seen).toContain('checkpoint-aged');
    expect(seen).toContain('user-messages-folded');
    expect(manager.budget().totalTokens).toBeLessThanOrEqual(6000);
    const levels = manager.activeMessages.filter(isCheckpointMessage).map((message) => checkpointOf(message)!.level);
    expect(new Set(levels).size).toBe(levels.length);
    // The goal block the runtime keeps in the system prompt reached the summariser.
    expect(JSON.stringify(chatRequests(server)[0]!.body)).toContain('ACTIVE GOAL: Make every module handle negative values');
  });
});
