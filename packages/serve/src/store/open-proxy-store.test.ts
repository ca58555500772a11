import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sha256Hex } from '@ollm/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RedisServer, redisServerAvailable, startRedisServer } from '../test-support/redis-server.js';
import { randomKey, sampleCompaction } from '../test-support/store-contract.js';
import { openProxyStore } from './open-proxy-store.js';

describe('openProxyStore', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'ollm-open-store-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it.each([[undefined], ['files']])('opens the file store under the home for %s', async (spec) => {
    const store = await openProxyStore(spec, { home });
    expect(store.kind).toBe('files');
    await store.putRemoved(sha256Hex('in files'), 'in files');
    const again = await openProxyStore('files', { home });
    expect(await again.getRemoved(sha256Hex('in files'))).toBe('in files');
    await store.close();
  });

  it.each(['', 'file', 'Files ', 'memcached://host', 'https://user:pw-secret@redis.example/'])('refuses %j, naming it without credentials', async (spec) => {
    const error = await openProxyStore(spec, { home }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'InvalidArgumentError', argument: 'store' });
    expect((error as Error).message).toMatch(/^--store must be "files" or a redis:\/\/ URL, got "/);
    expect((error as Error).message).not.toContain('pw-secret');
  });

  describe.skipIf(!redisServerAvailable())('with a Redis URL', () => {
    let server: RedisServer;
    beforeAll(async () => {
      server = await startRedisServer();
    });
    afterAll(async () => {
      await server?.stop();
    });

    it('opens the Redis store with the options given', async () => {
      const store = await openProxyStore(server.url, { home, keyPrefix: `ollm-open-${randomKey().slice(0, 8)}:` });
      expect(store.kind).toBe('redis');
      const key = randomKey();
      await store.putCompaction(key, sampleCompaction('opened'));
      expect(await store.getCompactions([key])).toEqual([sampleCompaction('opened')]);
      await store.close();
    });
  });
});
