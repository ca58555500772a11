import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { saveRemovedContent, sha256Hex } from '@ollm/core';
import { createRedisStore, type SearchableProxyStore } from '@ollm/serve/store';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
// Test support of @ollm/serve (not part of its package exports): a redis-server of the test's own.
import { freeLoopbackPort, type RedisServer, redisServerAvailable, startRedisServer } from '../../../packages/serve/src/test-support/redis-server.js';
import { runOllm, temporaryFolder } from './run-ollm.js';

describe('ollm recover --store', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let home: string;
  beforeEach(() => {
    folder = temporaryFolder();
    home = join(folder.path, 'home');
  });
  afterEach(() => folder.remove());

  const recover = (args: string[]) => runOllm(['recover', ...args], { cwd: folder.path, env: { OLLM_HOME: home } });

  it('reads the files under the home with --store files, as without it', async () => {
    const saved = saveRemovedContent(home, 'from files ✓');
    for (const args of [[saved.sha256.slice(0, 8), '--store', 'files'], [saved.sha256]]) {
      const run = await recover(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout).toBe('from files ✓');
    }
  });

  it.each([
    ['mongodb://user:pw-secret@host', /^ollm: --store must be "files" or a redis:\/\/ URL, got "mongodb:\/\/\[redacted\]@host"\n$/],
    ['file', /^ollm: --store must be "files" or a redis:\/\/ URL, got "file"\n$/],
  ])('exits 2 for --store %s', async (store, message) => {
    const run = await recover([`${'a'.repeat(8)}`, '--store', store]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('exits 2 when --logdir and a Redis --store are both given', async () => {
    const run = await recover(['a'.repeat(8), '--store', 'redis://127.0.0.1:1', '--logdir', 'elsewhere']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/give one of them/);
  });

  it('exits 1 naming the URL without its password when nothing answers there', async () => {
    const port = await freeLoopbackPort();
    const run = await recover(['a'.repeat(8), '--store', `redis://ollm:hunter2-secret@127.0.0.1:${port}`]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`redis://[redacted]@127.0.0.1:${port}`);
    expect(run.stderr).not.toContain('hunter2');
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  describe.skipIf(!redisServerAvailable())('with a Redis store', () => {
    let server: RedisServer;
    let store: SearchableProxyStore;
    beforeAll(async () => {
      server = await startRedisServer();
      store = await createRedisStore({ url: server.url });
    });
    afterAll(async () => {
      await store?.close();
      await server?.stop();
    });

    it('prints what a proxy saved, byte for byte, by sha256, prefix and placeholder path', async () => {
      const content = `line one\r\nsecond ✓ line ${randomBytes(4).toString('hex')}\n\ttabbed\u0000end`;
      const sha256 = sha256Hex(content);
      await store.putRemoved(sha256, content);
      for (const reference of [sha256, sha256.slice(0, 8), sha256.slice(0, 12).toUpperCase(), `${home}/removed/${sha256}.txt`]) {
        const run = await recover([reference, '--store', server.url]);
        expect(run.code, reference).toBe(0);
        expect(run.stdoutBytes.equals(Buffer.from(content, 'utf8')), reference).toBe(true);
        expect(run.stderr).toBe('');
      }
    });

    it('notes content saved with secrets redacted', async () => {
      const sha256 = sha256Hex(`key=sk-${randomBytes(8).toString('hex')}`);
      await store.putRemoved(sha256, 'key=[redacted]');
      const run = await recover([sha256, '--store', server.url]);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('key=[redacted]');
      expect(run.stderr).toMatch(/secrets were replaced by \[redacted\]/);
    });

    it('exits 2 for an ambiguous prefix, naming the matches, and for nothing saved', async () => {
      const shared = randomBytes(4).toString('hex');
      const [first, second] = [`${shared}${'0'.repeat(56)}`, `${shared}${'1'.repeat(56)}`];
      await store.putRemoved(first, 'a');
      await store.putRemoved(second, 'b');
      const ambiguous = await recover([shared, '--store', server.url]);
      expect(ambiguous.code).toBe(2);
      expect(ambiguous.stderr).toMatch(new RegExp(`^ollm: ${shared} is ambiguous: 2 saved pieces match \\(${first}, ${second}\\); give more digits\\.\\n$`));
      const missingPrefix = await recover(['deadbeefdeadbeef', '--store', server.url]);
      expect(missingPrefix.code).toBe(2);
      expect(missingPrefix.stderr).toMatch(/Nothing saved under the Redis store at redis:\/\/127\.0\.0\.1:\d+ starts with deadbeefdeadbeef/);
      const missing = await recover(['e'.repeat(64), '--store', server.url]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toMatch(/Nothing saved as e{64} in the Redis store at/);
    });

    it('refuses content changed in Redis since it was saved (exit 1)', async () => {
      const original = `original ${randomBytes(4).toString('hex')}`;
      const sha256 = sha256Hex(original);
      await store.putRemoved(sha256, original);
      // What a hand edit leaves: other bytes under the name, and no redaction marker.
      expect(await rawCommand(server.port, ['SET', `ollm:removed:${sha256}`, 'tampered'])).toBe('+OK');
      const run = await recover([sha256, '--store', server.url]);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/does not match its sha256/);
      expect(run.stdout).toBe('');
    });
  });
});

/** One command to Redis in its wire protocol, answering the first line of the reply (the CLI has no Redis client of its own). */
function rawCommand(port: number, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let reply = '';
    socket.once('error', reject);
    socket.once('connect', () => socket.write(`*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`));
    socket.on('data', (chunk: Buffer) => {
      reply += chunk.toString('utf8');
      if (reply.includes('\r\n')) {
        socket.destroy();
        resolve(reply.slice(0, reply.indexOf('\r\n')));
      }
    });
  });
}
