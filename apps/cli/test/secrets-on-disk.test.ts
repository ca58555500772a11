import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messageText } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { ChatDriver, binaryBuilt, binaryPath, runBinary } from './chat-driver.js';
import { temporaryFolder } from './run-ollm.js';

if (!binaryBuilt) console.warn(`Skipping the secrets tests: ${binaryPath} is missing. Run \`pnpm build --filter @ollm/cli...\`.`);

/** Every form a secret can take in a file: as is, inside JSON (once and twice), percent-encoded. */
function formsOf(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  return [...new Set([secret, json, JSON.stringify(json).slice(1, -1), encodeURIComponent(secret)])];
}

/** Every file under `folder`, recursively. */
function filesUnder(folder: string): string[] {
  return (readdirSync(folder, { recursive: true }) as string[]).map((name) => join(folder, name)).filter((path) => statSync(path).isFile());
}

/** Where any form of `secret` appears: `file: form`, or `stdout: form`. */
function leaks(secret: string, places: Record<string, string>): string[] {
  return Object.entries(places).flatMap(([place, text]) =>
    formsOf(secret)
      .filter((form) => text.includes(form))
      .map((form) => `${place}: ${form}`),
  );
}

function readAll(folder: string): Record<string, string> {
  return Object.fromEntries(filesUnder(folder).map((path) => [path, readFileSync(path, 'utf8')]));
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const KEYS = [
  ['a key with quotes and backslashes', 'sk-"quo\\ted"-\\0123456789'],
  ['a 6-character key', 'k3y!9z'],
] as const;

describe.skipIf(!binaryBuilt)('no API key on disk or on screen (the built binary, the fake model server)', () => {
  let server: FakeModelServer;
  let key = '';
  let failedOnce = false;
  beforeAll(async () => {
    server = await startFakeModelServer({
      reply: (request) => {
        const text = messageText(request.messages.at(-1)!);
        // Summariser requests get the server's own replies, which quote the conversation (and so the key).
        if (text.includes('<conversation>') || text.includes('RESUME')) return undefined;
        // A model fault: one 500, which the client retries.
        if (text.includes('fault once') && !failedOnce) {
          failedOnce = true;
          throw new Error('overloaded');
        }
        // An error that quotes the key, on every attempt: the chat prints it.
        if (text.includes('reject me')) throw new Error(`upstream rejected the key ${key}`);
        return `About your key ${key}: I used it against src/app.py. ${'The retry layer and the parser were checked again. '.repeat(8)}`;
      },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  it.each(KEYS)(
    '%s: nothing under $OLLM_HOME or the logdir, nor stdout/stderr, holds it after a chat with both summarisers, faults and errors',
    async (_name, secret) => {
      key = secret;
      failedOnce = false;
      const folder = temporaryFolder();
      try {
        const home = join(folder.path, 'home');
        const env = { OLLM_HOME: home, HOME: folder.path, OPENAI_API_KEY: key };
        // The model summariser compacts (fold alone would reach the target in this chat).
        writeFileSync(join(folder.path, '.ollmrc.json'), JSON.stringify({ compaction: { autoPipeline: 'goal-aware' } }));
        const chat = new ChatDriver(
          ['--api', 'openai', '--base-url', `${server.url}/v1`, '--model', 'fake-llama:8b', '--context-size', '2048', '--provider', 'goal-aware'],
          env,
          folder.path,
        );
        chat.send(
          `/goal ship the parser; the key is ${key}`,
          ...Array.from({ length: 12 }, (_, index) => `Question ${index + 1}: my key ${key} fails against http://me:${key}@127.0.0.1/ in src/app.py, why?`),
          `fault once: try ${key} again`,
          `reject me: ${key}`,
          `/snapshot restore ${key}`,
          '/compact summarize',
          `After the restart, is ${key} still set?`,
          '/snapshot create',
          '/export',
          '/quit',
        );
        const run = await chat.end();
        expect(run.code, run.stderr).toBe(0);
        // It really compacted with both summarisers, retried a fault, and printed errors.
        expect(run.stdout).toMatch(/^compacted with [\w,-]*goal-aware[\w,-]* \(automatic\): /m);
        expect(run.stdout).toMatch(/^compacted with summarize: /m);
        expect(run.stderr).toMatch(/^ollm: .*500/m);
        expect(run.stderr).toMatch(/^ollm: Invalid snapshot id /m);
        const files = readAll(home);
        expect(Object.keys(files).some((path) => /RESUME-.*\.md$/.test(path))).toBe(true);
        const removed = Object.keys(files).filter((path) => /removed\/[0-9a-f]{64}\.txt$/.test(path));
        expect(removed.length).toBeGreaterThan(0);
        expect(Object.keys(files).some((path) => path.endsWith('.redacted'))).toBe(true);
        expect(Object.values(files).join('\n')).toContain('[redacted]');

        expect(leaks(key, { ...files, stdout: run.stdout, stderr: run.stderr })).toEqual([]);

        // A reference the context prints still recovers: the redacted text, with a note.
        const context = Object.entries(files).find(([path]) => path.endsWith('context.json'))![1];
        const sha = removed.map((path) => /([0-9a-f]{64})\.txt$/.exec(path)![1]!).find((candidate) => context.includes(candidate.slice(0, 12)));
        const reference = sha ?? /([0-9a-f]{64})\.redacted$/.exec(Object.keys(files).find((path) => path.endsWith('.redacted'))!)![1]!;
        const recovered = await runBinary(['recover', reference.slice(0, 12)], env, folder.path);
        expect(recovered.code, recovered.stderr).toBe(0);
        expect(recovered.stdout.length).toBeGreaterThan(0);
        expect(leaks(key, { stdout: recovered.stdout, stderr: recovered.stderr })).toEqual([]);
      } finally {
        folder.remove();
      }
    },
  );

  it('compact with a separate --logdir: its removed content and RESUME hold no key', async () => {
    const folder = temporaryFolder();
    try {
      key = KEYS[0][1];
      const transcript = join(folder.path, 'chat.json');
      const messages = Array.from({ length: 10 }, (_, index) => [
        { role: 'user', content: `Step ${index}: the key ${key} fails, see src/app.py.` },
        { role: 'assistant', content: `Step ${index}: ${key} was rejected. ${'I checked the parser again. '.repeat(20)}` },
      ]).flat();
      writeFileSync(transcript, JSON.stringify(messages));
      const logdir = join(folder.path, 'logs');
      const run = await runBinary(
        [
          'compact',
          transcript,
          '--provider',
          'summarize',
          '--limit',
          '40%',
          '--api',
          'openai',
          '--base-url',
          `${server.url}/v1`,
          '--model',
          'fake-llama:8b',
          '--logdir',
          logdir,
          '--json',
        ],
        { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path, OPENAI_API_KEY: key },
        folder.path,
      );
      expect(run.code, run.stderr).toBe(0);
      const files = readAll(logdir);
      expect(Object.keys(files).some((path) => /RESUME-.*\.md$/.test(path))).toBe(true);
      expect(Object.keys(files).some((path) => /removed\/[0-9a-f]{64}\.txt$/.test(path))).toBe(true);
      expect(leaks(key, { ...files, stdout: run.stdout, stderr: run.stderr })).toEqual([]);
    } finally {
      folder.remove();
    }
  });

  it('a server URL with credentials, the server down: no password printed (flag, environment, config file)', async () => {
    const folder = temporaryFolder();
    try {
      const password = 'hunter2-"pw"';
      const url = `http://user:${encodeURIComponent(password)}@127.0.0.1:${await closedPort()}`;
      const env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
      const runs = [
        await runBinary(['--host', url], env, folder.path),
        await runBinary([], { ...env, OLLM_HOST: url }, folder.path),
        await runBinary(['config'], { ...env, OLLM_HOST: url }, folder.path),
      ];
      writeFileSync(join(folder.path, '.ollmrc.json'), JSON.stringify({ host: url }));
      runs.push(await runBinary([], env, folder.path));
      for (const run of runs) {
        expect(leaks(password, { stdout: run.stdout, stderr: run.stderr })).toEqual([]);
        expect(`${run.stdout}${run.stderr}`).not.toContain('hunter2');
      }
      // The flag is refused (exit 2); the chats from the environment and the file fail to connect.
      expect(runs.map((run) => run.code !== 0)).toEqual([true, true, false, true]);
      expect(runs[2]!.stdout).toMatch(/^host\s+http:\/\/\[redacted\]@127\.0\.0\.1:\d+\s+env:OLLM_HOST$/m);
    } finally {
      folder.remove();
    }
  });
});
