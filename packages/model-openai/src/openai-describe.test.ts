import { afterEach, describe, expect, it } from 'vitest';
import { ModelUnavailableError, modelWindow, silentLogger } from '@ollm/core';
import type { FakeModel, FakeModelServer, OpenAIContextShape } from '@ollm/fake-model-server';
import { startFakeModelServer } from '@ollm/fake-model-server';
import { createOpenAIModel } from './openai-model.js';

// A model trained for 32768 tokens that the server runs with a 4096-token window.
const served: FakeModel = { name: 'served', contextLength: 32768, loadedContextLength: 4096 };
const started: FakeModelServer[] = [];

async function server(shape?: OpenAIContextShape, models: readonly FakeModel[] = [served]): Promise<FakeModelServer> {
  const fake = await startFakeModelServer({ models, strictModels: true, ...(shape ? { openAIContextShape: shape } : {}) });
  started.push(fake);
  return fake;
}

function model(fake: FakeModelServer, name = 'served') {
  return createOpenAIModel({
    baseURL: `${fake.url}/v1`,
    model: name,
    maxRetries: 1,
    retryDelay: { initialDelayMs: 10, maxDelayMs: 20 },
  });
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((fake) => fake.close()));
});

describe('describe() through the openai client', () => {
  it.each([
    { shape: 'vllm', contextLength: 4096 },
    { shape: 'lm-studio', contextLength: 4096 },
    { shape: 'llama-cpp', contextLength: 4096 },
    { shape: 'openrouter', contextLength: 32768 },
  ] as const)('reads the context length in the $shape shape', async ({ shape, contextLength }) => {
    const fake = await server(shape);
    expect(await model(fake).describe()).toEqual({ contextLength });
  });

  it('LM Studio, model not loaded: max_context_length', async () => {
    const fake = await server('lm-studio', [{ name: 'served', contextLength: 32768 }]);
    expect(await model(fake).describe()).toEqual({ contextLength: 32768 });
  });

  it('llama.cpp without a readable /props: meta.n_ctx_train', async () => {
    const fake = await server('llama-cpp');
    fake.setFault({ kind: 'status', status: 404, times: 'always', paths: ['/props'] });
    expect(await model(fake).describe()).toEqual({ contextLength: 32768 });
  });

  it('llama.cpp serving one model under another name: that model', async () => {
    const fake = await server('llama-cpp');
    expect(await model(fake, 'whatever-the-user-typed').describe()).toEqual({ contextLength: 4096 });
  });

  it('a server without GET /models/{id}: read from the /models list', async () => {
    const fake = await server('vllm');
    fake.setFault({ kind: 'status', status: 404, times: 'always', paths: ['/v1/models/served'] });
    expect(await model(fake).describe()).toEqual({ contextLength: 4096 });
    expect(fake.requests.map((request) => request.path)).toEqual(['/v1/models/served', '/v1/models']);
  });

  it('absent (as OpenAI itself): undefined, and the window falls back to 8192', async () => {
    const fake = await server();
    const openai = model(fake);
    expect(await openai.describe()).toEqual({});
    expect(await modelWindow(openai, { logger: silentLogger, providerName: 'test' })).toBe(8192);
  });

  it('the reported window is what goal-aware and summarize use', async () => {
    const fake = await server('vllm');
    expect(await modelWindow(model(fake), { logger: silentLogger, providerName: 'test' })).toBe(4096);
  });

  it('unreachable: ModelUnavailableError naming the base URL', async () => {
    const fake = await server('vllm');
    fake.setFault('refuse');
    const error = await model(fake)
      .describe()
      .catch((caught: unknown) => caught);
    expect(ModelUnavailableError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain(`${fake.url}/v1`);
  });
});
