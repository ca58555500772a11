import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@ollm/core';
import { createClient } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { freeLoopbackPort, type RedisServer, redisServerAvailable, startRedisServer } from '../test-support/redis-server.js';
import { eventually, randomKey, runProxyStoreContract, sampleCompaction } from '../test-support/store-contract.js';
import { createRedisStore } from './redis-store.js';
import { StoreUnavailableError } from './store-unavailable-error.js';

describe.skipIf(!redisServerAvailable())('redis store', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedisServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  /** Each test its own key prefix on the one server, as separate deployments sharing a Redis would. */
  const uniquePrefix = (): string => `ollm-test-${randomBytes(6).toString('hex')}:`;

  describe('the ProxyStore contract', () => {
    runProxyStoreContract(async () => {
      const keyPrefix = uniquePrefix();
      return { open: () => createRedisStore({ url: server.url, keyPrefix }), dispose: async () => {} };
    });
  });

  describe('keys and lifetimes', () => {
    let raw: ReturnType<typeof createClient>;
    let keyPrefix: string;
    beforeAll(async () => {
      raw = createClient({ url: server.url });
      await raw.connect();
    });
    afterAll(async () => {
      await raw?.close();
    });
    beforeEach(() => {
      keyPrefix = uniquePrefix();
    });

    it('keeps compactions under <prefix>compaction:<key> with the TTL, removed content with none, locks with PX', async () => {
      const store = await createRedisStore({ url: server.url, keyPrefix, compactionTtlSeconds: 3_600 });
      const [key, lockKey] = [randomKey(), randomKey()];
      const content = 'removed';
      await store.putCompaction(key, sampleCompaction('ttl'));
      await store.putRemoved(sha256Hex(content), content);
      const release = await store.tryLock(lockKey, 60_000);
      expect(JSON.parse((await raw.get(`${keyPrefix}compaction:${key}`))!)).toEqual(sampleCompaction('ttl'));
      const ttl = await raw.ttl(`${keyPrefix}compaction:${key}`);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(3_600);
      expect(await raw.get(`${keyPrefix}removed:${sha256Hex(content)}`)).toBe(content);
      expect(await raw.ttl(`${keyPrefix}removed:${sha256Hex(content)}`)).toBe(-1);
      const lockTtl = await raw.pTTL(`${keyPrefix}lock:${lockKey}`);
      expect(lockTtl).toBeGreaterThan(0);
      expect(lockTtl).toBeLessThanOrEqual(60_000);
      await release!();
      expect(await raw.exists(`${keyPrefix}lock:${lockKey}`)).toBe(0);
      await store.close();
    });

    it('uses ollm: as the default prefix', async () => {
      const store = await createRedisStore({ url: server.url });
      const key = randomKey();
      await store.putCompaction(key, sampleCompaction('default prefix'));
      expect(await raw.exists(`ollm:compaction:${key}`)).toBe(1);
      await raw.del(`ollm:compaction:${key}`);
      await store.close();
    });

    it('keeps two prefixes apart', async () => {
      const [first, second] = [await createRedisStore({ url: server.url, keyPrefix }), await createRedisStore({ url: server.url, keyPrefix: uniquePrefix() })];
      const key = randomKey();
      await first.putCompaction(key, sampleCompaction('apart'));
      await first.putRemoved(key, 'apart');
      expect(await second.getCompactions([key])).toEqual([undefined]);
      expect(await second.getRemoved(key)).toBeUndefined();
      expect(await second.findRemoved(key.slice(0, 8))).toEqual([]);
      const release = await first.tryLock(key, 60_000);
      expect(await second.tryLock(key, 60_000)).toBeTypeOf('function');
      await release!();
      await first.close();
      await second.close();
    });

    it('reads a value that is not a compaction as undefined', async () => {
      const store = await createRedisStore({ url: server.url, keyPrefix });
      const [garbage, shape] = [randomKey(), randomKey()];
      await raw.set(`${keyPrefix}compaction:${garbage}`, '{"coveredMessages": 3, "messa');
      await raw.set(`${keyPrefix}compaction:${shape}`, '[1, 2, 3]');
      expect(await store.getCompactions([garbage, shape])).toEqual([undefined, undefined]);
      await store.close();
    });

    it('reads removed content changed in Redis (no longer its sha256, no marker) as undefined', async () => {
      const store = await createRedisStore({ url: server.url, keyPrefix });
      const sha256 = sha256Hex('original');
      await store.putRemoved(sha256, 'original');
      await raw.set(`${keyPrefix}removed:${sha256}`, 'tampered');
      expect(await store.getRemoved(sha256)).toBeUndefined();
      await store.close();
    });

    it('finds removed content by prefix with SCAN, even when the key prefix holds glob characters', async () => {
      const globPrefix = `ollm*[test]?-${randomBytes(4).toString('hex')}:`;
      const lookalike = globPrefix.replace('*[test]?', 'X[test]Y');
      const [store, other] = [
        await createRedisStore({ url: server.url, keyPrefix: globPrefix }),
        await createRedisStore({ url: server.url, keyPrefix: lookalike }),
      ];
      const [first, second, unrelated] = [`abcd${'1'.repeat(60)}`, `abcd${'2'.repeat(60)}`, `ef${'3'.repeat(62)}`];
      for (const sha256 of [second, unrelated, first]) await store.putRemoved(sha256, `content of ${sha256}`);
      await other.putRemoved(`abcd${'9'.repeat(60)}`, 'in the lookalike prefix');
      // A redaction marker is not an entry.
      await store.putRemoved(`abcd${'4'.repeat(60)}`, 'redacted');
      expect(await store.findRemoved('abcd')).toEqual([first, second, `abcd${'4'.repeat(60)}`]);
      expect(await store.findRemoved(unrelated)).toEqual([unrelated]);
      expect(await store.findRemoved('0000')).toEqual([]);
      await expect(store.findRemoved('*')).rejects.toMatchObject({ name: 'InvalidArgumentError' });
      await store.close();
      await other.close();
    });

    it("never deletes a lock someone else took after this taker's expired (compare-and-delete)", async () => {
      const [first, second] = [await createRedisStore({ url: server.url, keyPrefix }), await createRedisStore({ url: server.url, keyPrefix })];
      const key = randomKey();
      const expired = await first.tryLock(key, 20);
      const taken = await eventually(() => second.tryLock(key, 60_000));
      const token = await raw.get(`${keyPrefix}lock:${key}`);
      await expired!();
      expect(await raw.get(`${keyPrefix}lock:${key}`)).toBe(token);
      await taken();
      expect(await raw.exists(`${keyPrefix}lock:${key}`)).toBe(0);
      await first.close();
      await second.close();
    });
  });

  describe('connection errors', () => {
    it('names the URL without its password when nothing listens there', async () => {
      const port = await freeLoopbackPort();
      const url = `redis://ollm:hunter2-secret@127.0.0.1:${port}/0`;
      const error = await createRedisStore({ url }).catch((caught: unknown) => caught);
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      const failure = error as StoreUnavailableError;
      expect(failure.code).toBe('store-unavailable');
      expect(failure.url).toBe(`redis://[redacted]@127.0.0.1:${port}/0`);
      expect(failure.message).toContain(`redis://[redacted]@127.0.0.1:${port}/0`);
      expect(failure.message).toMatch(/ECONNREFUSED/);
      expect(`${failure.message} ${failure.url} ${JSON.stringify(failure)}`).not.toContain('hunter2');
    });

    it('names the URL without its password when the server refuses the credentials', async () => {
      const url = server.url.replace('redis://', 'redis://someone:hunter2-secret@');
      const error = await createRedisStore({ url }).catch((caught: unknown) => caught);
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(server.url.replace('redis://', 'redis://[redacted]@'));
      expect((error as Error).message).not.toContain('hunter2');
    });

    it('fails calls with the typed error once the server is gone, instead of waiting for it', async () => {
      const doomed = await startRedisServer();
      const store = await createRedisStore({ url: doomed.url, keyPrefix: uniquePrefix() });
      await store.putCompaction(randomKey(), sampleCompaction('before'));
      await doomed.stop();
      const error = await eventually(async () =>
        store.getCompactions([randomKey()]).then(
          () => undefined,
          (caught: unknown) => caught,
        ),
      );
      expect(StoreUnavailableError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(doomed.url);
      await store.close();
    });

    it('refuses a URL that is not redis:// or rediss://', async () => {
      await expect(createRedisStore({ url: 'http://user:pw-secret@127.0.0.1:6379' })).rejects.toMatchObject({
        name: 'InvalidArgumentError',
        message: expect.not.stringContaining('pw-secret') as unknown as string,
      });
    });
  });
});
