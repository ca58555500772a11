import { afterAll, beforeAll } from 'vitest';
import type { LanguageModel, ProviderContext } from '@ollm/core';
import { runProviderConformance } from '@ollm/provider-conformance';
import { createSummarizeProvider } from './index.js';
import { createModel, startFakeModelServer, type FakeModelServer } from './test-support/fake-models.js';

let server: FakeModelServer;
let model: LanguageModel;
beforeAll(async () => {
  server = await startFakeModelServer();
  model = createModel(server, 'openai');
});
afterAll(() => server.close());

// The model exists only once the server listens, so the context is read per run.
runProviderConformance(() => createSummarizeProvider({ modelContextTokens: 8192 }), {
  numRuns: 10,
  context: (): Partial<ProviderContext> => ({ model }),
});
