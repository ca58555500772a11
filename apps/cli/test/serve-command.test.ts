import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { runCli } from '../src/run-cli.js';
import { runOllm, temporaryFolder } from './run-ollm.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** `ollm serve` in-process until `stop()`; resolves once it printed where it listens. */
async function startServe(argv: readonly string[], env: Record<string, string>): Promise<{ url: string; stderr: () => string; stop: () => Promise<number> }> {
  const controller = new AbortController();
  let stderr = '';
  let listening!: (url: string) => void;
  const started = new Promise<string>((resolve) => (listening = resolve));
  const running = runCli(['serve', ...argv], {
    stdout: { write: () => true },
    stderr: {
      write: (chunk: string | Uint8Array) => {
        stderr += chunk.toString();
        const found = /listening on (http:\/\/\S+)/.exec(stderr);
        if (found) listening(found[1]!);
        return true;
      },
    },
    cwd: process.cwd(),
    env,
    isTTY: false,
    signal: controller.signal,
  });
  const url = await Promise.race([started, running.then((code) => Promise.reject(new Error(`serve exited ${code}: ${stderr}`)))]);
  return {
    url,
    stderr: () => stderr,
    stop: async () => {
      controller.abort();
      return running;
    },
  };
}

describe('ollm serve', () => {
  let fake: FakeModelServer;

  it('serves a long conversation inside the window, logs what it compacted, and `ollm recover` prints what it removed', async () => {
    fake = await startFakeModelServer({ models: [{ name: 'small:4k', contextLength: 4096 }], enforceWindow: true });
    cleanups.push(() => fake.close());
    const home = temporaryFolder();
    cleanups.push(home.remove);
    const env = { OLLM_HOME: home.path, HOME: home.path };
    const serve = await startServe(['--upstream', fake.url, '--port', '0'], env);
    const client = new OpenAI({ baseURL: `${serve.url}/v1`, apiKey: 'sk-serve-cli-secret-123', maxRetries: 0 });
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are a coding agent.' }];
    const references: string[] = [];
    for (let turn = 0; turn < 30; turn += 1) {
      messages.push({ role: 'user', content: `Turn ${turn}: read src/m${turn}.ts` });
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: 'read_file', arguments: '{}' } }] });
      messages.push({
        role: 'tool',
        tool_call_id: `c${turn}`,
        content: Array.from({ length: 30 }, (_, line) => `const value${turn}_${line} = ${line * turn};`).join('\n'),
      });
      const { data, response } = await client.chat.completions.create({ model: 'small:4k', messages, max_tokens: 100 }).withResponse();
      const refs = /refs=([0-9a-f,]+)/.exec(response.headers.get('x-ollm-context') ?? '')?.[1];
      if (refs) references.push(...refs.split(','));
      messages.push({ role: 'assistant', content: data.choices[0]?.message.content ?? '' });
    }
    expect(await serve.stop()).toBe(0);
    const stderr = serve.stderr();
    expect(stderr).toMatch(/^ollm serve: listening on http:\/\/127\.0\.0\.1:\d+ -> http:\/\/127\.0\.0\.1:\d+ \(ollama\) · pipeline fold · store files\n/);
    expect(stderr).toMatch(/ollm serve: POST \/v1\/chat\/completions small:4k: [\d,]+ -> [\d,]+ tokens \(budget 3,996 of a 4,096 window\) · compacted/);
    expect(stderr.trimEnd().endsWith('ollm serve: stopped')).toBe(true);
    expect(stderr).not.toContain('sk-serve-cli-secret');
    expect(fake.requests.filter((request) => request.path === '/v1/chat/completions').every((request) => request.promptTokens + 100 <= 4096)).toBe(true);
    // Compactions are kept in the ollm home, removed content in its recovery store.
    expect(readdirSync(join(home.path, 'serve', 'compactions')).length).toBeGreaterThan(0);
    expect(references.length).toBeGreaterThan(0);
    const reference = references[0]!;
    const [file] = readdirSync(join(home.path, 'removed')).filter((name) => name.startsWith(reference) && name.endsWith('.txt'));
    // As saved with --json, byte for byte; without, a run of messages is printed readably.
    const recovered = await runOllm(['recover', reference, '--json'], { env });
    expect(recovered.code).toBe(0);
    expect(recovered.stdoutBytes.equals(readFileSync(join(home.path, 'removed', file!)))).toBe(true);
    expect((await runOllm(['recover', reference], { env })).code).toBe(0);
  });

  it.each([
    [['--port', 'abc'], /Invalid --port "abc": use a whole number from 0 to 65,535/],
    [['--upstream', 'ftp://host'], /--upstream "ftp:\/\/host" uses ftp:\/\/; model servers are reached over http/],
    [['--upstream', 'http://user:hunter2@127.0.0.1:1'], /credentials in the URL are not used/],
    [['--api', 'nope'], /Unknown --api "nope"\. APIs: ollama, openai\./],
    [['--pipeline', 'fold,nosuch'], /nosuch/],
    [['--window', '12'], /Invalid --window "12"/],
    [['--store', 'memcached://x'], /--store must be "files" or a redis:\/\/ URL/],
    [['--summary-upstream', 'http://127.0.0.1:1'], /--summary-upstream needs --summary-model/],
  ])('refuses %j with exit 2 before listening', async (argv, message) => {
    const home = temporaryFolder();
    cleanups.push(home.remove);
    const run = await runOllm(['serve', ...argv, '--port', argv[0] === '--port' ? argv[1]! : '0'], { env: { OLLM_HOME: home.path, HOME: home.path } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toContain('listening');
    expect(run.stderr).not.toContain('hunter2');
  });

  it('says which port is taken, with exit 2', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise<void>((resolve) => taken.close(() => resolve())));
    const port = (taken.address() as AddressInfo).port;
    const home = temporaryFolder();
    cleanups.push(home.remove);
    const run = await runOllm(['serve', '--port', String(port), '--upstream', 'http://127.0.0.1:1'], { env: { OLLM_HOME: home.path, HOME: home.path } });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Port ${port} on 127.0.0.1 is already in use: give another with --port.`);
  });
});
