import { afterAll, beforeAll } from 'vitest';
import type { LanguageModel, ProviderContext } from '@ollm/core';
import { runProviderConformance } from '@ollm/provider-conformance';
import { createGoalAwareProvider } from './index.js';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createModel } from './test-support/fake-models.js';

let server: FakeModelServer;
let model: LanguageModel;
beforeAll(async () => {
  server = await startFakeModelServer();
  model = createModel(server, 'ollama');
});
afterAll(() => server.close());

// The model exists only once the server listens, so the context is read per run.
runProviderConformance(() => createGoalAwareProvider(), {
  numRuns: 10,
  context: (): Partial<ProviderContext> => ({ model }),
  // Each compaction writes a new checkpoint: a new id and time, and the model's reply.
  deterministic: false,
});
