import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRemovedEntry, saveRemovedContent, sha256Hex } from '@ollm/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { randomKey, runProxyStoreContract, sampleCompaction } from '../test-support/store-contract.js';
import { createFileStore, expireCompactions } from './file-store.js';

describe('file store: the ProxyStore contract', () => {
  runProxyStoreContract(async () => {
    const home = mkdtempSync(join(tmpdir(), 'ollm-file-store-'));
    return { open: async () => createFileStore({ home }), dispose: async () => rmSync(home, { recursive: true, force: true }) };
  });
});

describe('file store', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'ollm-file-store-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  const compactionFile = (key: string): string => join(home, 'serve', 'compactions', key.slice(0, 2), `${key}.json`);

  it('keeps a compaction as one JSON file under serve/compactions/<first 2 hex>/, with no temporary file left', async () => {
    const store = createFileStore({ home });
    const key = randomKey();
    await store.putCompaction(key, sampleCompaction('layout'));
    expect(JSON.parse(readFileSync(compactionFile(key), 'utf8'))).toEqual(sampleCompaction('layout'));
    expect(readdirSync(join(home, 'serve', 'compactions', key.slice(0, 2)))).toEqual([`${key}.json`]);
  });

  it.each([
    ['truncated JSON', (text: string) => text.slice(0, text.length / 2)],
    ['not JSON', () => '\u0000\u0001 garbage'],
    ['JSON of another shape', () => JSON.stringify({ coveredMessages: 'three', messages: [] })],
    ['an empty file', () => ''],
  ])('reads a damaged compaction file (%s) as undefined, and a later put repairs it', async (_label, damage) => {
    const store = createFileStore({ home });
    const [damaged, intact] = [randomKey(), randomKey()];
    await store.putCompaction(damaged, sampleCompaction('damaged'));
    await store.putCompaction(intact, sampleCompaction('intact'));
    writeFileSync(compactionFile(damaged), damage(readFileSync(compactionFile(damaged), 'utf8')));
    expect(await store.getCompactions([damaged, intact])).toEqual([undefined, sampleCompaction('intact')]);
    await store.putCompaction(damaged, sampleCompaction('again'));
    expect(await store.getCompactions([damaged])).toEqual([sampleCompaction('again')]);
  });

  it('refuses a key like ../x and writes nothing for it', async () => {
    const store = createFileStore({ home: join(home, 'inner') });
    await expect(store.putCompaction('../x', sampleCompaction('escape'))).rejects.toMatchObject({ name: 'InvalidArgumentError', argument: 'key' });
    await expect(store.putRemoved('../../x', 'escape')).rejects.toMatchObject({ name: 'InvalidArgumentError', argument: 'sha256' });
    await expect(store.tryLock('../x', 1_000)).rejects.toMatchObject({ name: 'InvalidArgumentError' });
    expect(readdirSync(home)).toEqual([]);
  });

  it('saves removed content where core recovery (and ollm recover) reads it', async () => {
    const store = createFileStore({ home });
    const content = 'removed ✓\n';
    const sha256 = sha256Hex(content);
    await store.putRemoved(sha256, content);
    const entry = readRemovedEntry(join(home, 'removed', `${sha256}.txt`), sha256);
    expect(entry.state).toBe('intact');
    expect(entry.content.toString('utf8')).toBe(content);
  });

  it('marks content the caller redacted, so recovery tells it from a damaged entry', async () => {
    const store = createFileStore({ home });
    const sha256 = sha256Hex('key=sk-secret-0123456789');
    await store.putRemoved(sha256, 'key=[redacted]');
    expect(readRemovedEntry(join(home, 'removed', `${sha256}.txt`), sha256).state).toBe('redacted');
    expect(readFileSync(join(home, 'removed', `${sha256}.redacted`), 'utf8').trim()).toBe(sha256Hex('key=[redacted]'));
  });

  it('reads what a provider saved through core, and leaves it as it is', async () => {
    const store = createFileStore({ home });
    const saved = saveRemovedContent(home, 'saved by a provider');
    await store.putRemoved(saved.sha256, 'saved by a provider');
    expect(await store.getRemoved(saved.sha256)).toBe('saved by a provider');
    expect(readdirSync(join(home, 'removed'))).toEqual([`${saved.sha256}.txt`]);
  });

  it('reads a damaged removed entry as undefined, and writes it again on the next put', async () => {
    const store = createFileStore({ home });
    const content = 'will be damaged';
    const saved = saveRemovedContent(home, content);
    writeFileSync(saved.path, 'will be dam');
    expect(await store.getRemoved(saved.sha256)).toBeUndefined();
    await store.putRemoved(saved.sha256, content);
    expect(await store.getRemoved(saved.sha256)).toBe(content);
  });

  it('finds removed content by prefix', async () => {
    const store = createFileStore({ home });
    expect(await store.findRemoved('abcd')).toEqual([]);
    const [first, second, other] = [`abcd${'1'.repeat(60)}`, `abcd${'2'.repeat(60)}`, `ef${'3'.repeat(62)}`];
    for (const sha256 of [second, first, other]) await store.putRemoved(sha256, `content of ${sha256}`);
    expect(await store.findRemoved('abcd')).toEqual([first, second]);
    expect(await store.findRemoved(other)).toEqual([other]);
    await expect(store.findRemoved('../')).rejects.toMatchObject({ name: 'InvalidArgumentError' });
  });

  describe('locks', () => {
    const lockFile = (key: string): string => join(home, 'serve', 'locks', `${key}.lock`);
    const writeLock = (key: string, holder: Record<string, unknown> | string): void => {
      mkdirSync(join(home, 'serve', 'locks'), { recursive: true });
      writeFileSync(lockFile(key), typeof holder === 'string' ? holder : JSON.stringify(holder));
    };

    it("names the holder's pid and expiry in the lock file, and removes it on release", async () => {
      const store = createFileStore({ home });
      const key = randomKey();
      const release = await store.tryLock(key, 60_000);
      const holder = JSON.parse(readFileSync(lockFile(key), 'utf8')) as { pid: number; expiresAt: number; token: string };
      expect(holder.pid).toBe(process.pid);
      expect(holder.expiresAt).toBeGreaterThan(Date.now());
      expect(holder.token).toMatch(/^[0-9a-f]{32}$/);
      await release!();
      expect(existsSync(lockFile(key))).toBe(false);
      expect(readdirSync(join(home, 'serve', 'locks'))).toEqual([]);
    });

    it('takes over a lock whose holder process has died, though its expiry is far off', async () => {
      const exited = spawnSync(process.execPath, ['-e', ''], { stdio: 'ignore' });
      expect(exited.pid).toBeGreaterThan(0);
      const key = randomKey();
      writeLock(key, { pid: exited.pid, hostname: hostname(), token: 'dead', expiresAt: Date.now() + 3_600_000 });
      const release = await createFileStore({ home }).tryLock(key, 60_000);
      expect(release).toBeTypeOf('function');
      expect(JSON.parse(readFileSync(lockFile(key), 'utf8'))).toMatchObject({ pid: process.pid });
    });

    it('respects a live lock of another host (its pid means nothing here) until it expires', async () => {
      const key = randomKey();
      writeLock(key, { pid: 999_999_999, hostname: `not-${hostname()}`, token: 'remote', expiresAt: Date.now() + 3_600_000 });
      expect(await createFileStore({ home }).tryLock(key, 60_000)).toBeUndefined();
      writeLock(key, { pid: 999_999_999, hostname: `not-${hostname()}`, token: 'remote', expiresAt: Date.now() - 1 });
      expect(await createFileStore({ home }).tryLock(key, 60_000)).toBeTypeOf('function');
    });

    it('takes over a lock file that cannot be read as a lock', async () => {
      const key = randomKey();
      writeLock(key, '{"pid": 12');
      expect(await createFileStore({ home }).tryLock(key, 60_000)).toBeTypeOf('function');
    });
  });
});

describe('file store: compactions expire', () => {
  it('reads a compaction nobody read for longer than the TTL as a miss, and each read keeps one fresh', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ollm-file-ttl-'));
    try {
      let clock = Date.UTC(2031, 0, 1);
      const store = createFileStore({ home, compactionTtlSeconds: 60, now: () => clock });
      const key = 'c'.repeat(64);
      await store.putCompaction(key, { coveredMessages: 1, messages: [], tokensBefore: 10, tokensAfter: 5, stages: ['fold'], references: [] });
      const file = join(home, 'serve', 'compactions', 'cc', `${key}.json`);
      utimesSync(file, new Date(clock), new Date(clock));
      clock += 50_000;
      expect((await store.getCompactions([key]))[0]?.coveredMessages).toBe(1);
      // The read at +50 s renewed it: +100 s is 50 s after that read.
      clock += 50_000;
      expect((await store.getCompactions([key]))[0]?.coveredMessages).toBe(1);
      clock += 61_000;
      expect(await store.getCompactions([key])).toEqual([undefined]);
      expect(expireCompactions({ home, ttlSeconds: 60, now: clock, dryRun: true })).toEqual([file]);
      expect(expireCompactions({ home, ttlSeconds: 60, now: clock })).toEqual([file]);
      expect(expireCompactions({ home, ttlSeconds: 60, now: clock })).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
