import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { ModelWindows } from './model-windows.js';
import { parseUpstream } from './upstream.js';

let fake: FakeModelServer | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const MODEL = { name: 'coder:30b', family: 'qwen3', parameterSize: '30B', contextLength: 262_144, loadedContextLength: 32_768 };

async function chat(url: string, options?: Record<string, unknown>): Promise<void> {
  const body = { model: MODEL.name, stream: false, messages: [{ role: 'user', content: 'hello' }], ...(options ? { options } : {}) };
  const response = await fetch(`${url}/api/chat`, { method: 'POST', body: JSON.stringify(body) });
  expect(response.status).toBe(200);
}

describe('ModelWindows in front of Ollama', () => {
  it("assumes Ollama's default until a request without num_ctx has loaded the model, then reads the window it runs with from /api/ps", async () => {
    fake = await startFakeModelServer({ models: [MODEL] });
    const logs: string[] = [];
    const windows = new ModelWindows({
      upstream: parseUpstream(fake.url, 'ollama'),
      logger: { debug: () => {}, info: (line) => logs.push(line), warn: (line) => logs.push(line) },
    });
    expect(await windows.windowFor(MODEL.name, {})).toEqual({ tokens: 4096, source: 'server', assumedDefault: true });
    await chat(fake.url);
    windows.noteServed(MODEL.name, {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(await windows.windowFor(MODEL.name, {})).toEqual({ tokens: 32_768, source: 'server' });
    expect(logs).toEqual([
      `ollm serve: ${MODEL.name} runs with a 32,768-token window on ${parseUpstream(fake.url, 'ollama').display} (its /api/ps), not the 4,096 assumed`,
    ]);
    // Known now: no more asking.
    const asked = fake.requests.length;
    expect(await windows.windowFor(MODEL.name, {})).toEqual({ tokens: 32_768, source: 'server' });
    expect(fake.requests.length).toBe(asked);
  });

  it('does not take the window of a model another client loaded with its own num_ctx for the one requests without it get', async () => {
    fake = await startFakeModelServer({ models: [MODEL] });
    await chat(fake.url, { num_ctx: 65_536 });
    const windows = new ModelWindows({ upstream: parseUpstream(fake.url, 'ollama'), logger: { debug: () => {}, info: () => {}, warn: () => {} } });
    expect((await windows.windowFor(MODEL.name, {})).tokens).toBe(4096);
    // A request's own num_ctx is its window, capped by the trained length.
    expect(await windows.windowFor(MODEL.name, { requestedWindow: 16_384 })).toEqual({ tokens: 16_384, source: 'request' });
    expect(await windows.windowFor(MODEL.name, { requestedWindow: 1_000_000 })).toEqual({ tokens: 262_144, source: 'request' });
  });

  it('--window wins over anything the server says', async () => {
    fake = await startFakeModelServer({ models: [MODEL] });
    const windows = new ModelWindows({
      upstream: parseUpstream(fake.url, 'ollama'),
      window: 12_000,
      logger: { debug: () => {}, info: () => {}, warn: () => {} },
    });
    expect(await windows.windowFor(MODEL.name, { requestedWindow: 4096 })).toEqual({ tokens: 12_000, source: 'flag' });
    expect(fake.requests).toHaveLength(0);
  });
});
