import { afterAll, beforeAll } from 'vitest';
import type { LanguageModel, ProviderContext } from '@ollm/core';
import { runProviderConformance } from '@ollm/provider-conformance';
import { createSummarizeProvider } from './index.js';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { createModel } from './test-support/fake-models.js';

let server: FakeModelServer;
let model: LanguageModel;
beforeAll(async () => {
  server = await startFakeModelServer();
  model = createModel(server, 'openai');
});
afterAll(() => server.close());

// The model exists only once the server listens, so the context is read per run.
// One limit ratio: a restart replaces the whole conversation whatever the limit, so a second
// ratio would re-run the same model calls on every fixture.
runProviderConformance(() => createSummarizeProvider({ modelContextTokens: 8192 }), {
  numRuns: 10,
  limitRatios: [0.5],
  context: (): Partial<ProviderContext> => ({ model }),
  // Each compaction writes a new resume message: a new id, and the model's reply.
  deterministic: false,
});
