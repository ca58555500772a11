import { randomBytes } from 'node:crypto';
import { sha256Hex } from '@ollm/core';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { CachedCompaction, ProxyStore } from '../store/proxy-store.js';

/** One backing (a folder, a Redis key prefix) that several store instances can share, as proxy replicas do. */
export interface StoreBacking {
  /** A new store instance over the same backing (its own client, for Redis). */
  open(): Promise<ProxyStore>;
  /** Removes what the backing holds; the contract closes the instances it opened first. */
  dispose(): Promise<void>;
}

/** A random compaction key, sha256 or lock key (64 lower-case hex digits). */
export function randomKey(): string {
  return randomBytes(32).toString('hex');
}

/** Polls `attempt` until it yields a value: for what becomes true once a TTL has passed, without timing assertions. */
export async function eventually<T>(attempt: () => Promise<T | undefined>, rounds = 2_000): Promise<T> {
  for (let round = 0; round < rounds; round += 1) {
    const value = await attempt();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`still nothing after ${rounds} attempts`);
}

/** A compaction whose messages are arbitrary JSON wire messages: unicode, nesting, `__proto__` keys. */
export function sampleCompaction(label: string): CachedCompaction {
  const messages = JSON.parse(
    JSON.stringify([
      { role: 'system', content: `system ${label}` },
      { role: 'user', content: 'héllo ✓ 日本語 🎉 \u0000 "quoted" \\ back', images: null },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.ts"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: [{ type: 'text', text: 'line\r\nline' }], extra: { deep: [1, 2.5, true, false, null] } },
    ]),
  ) as unknown[];
  // An own `__proto__` key, as JSON.parse makes it (an object literal would set the prototype instead).
  messages.push(JSON.parse('{"role":"user","content":"x","__proto__":{"polluted":true},"constructor":"c"}'));
  return { coveredMessages: 12, messages, tokensBefore: 5_000, tokensAfter: 800, stages: ['fold', 'goal-aware'], references: [sha256Hex(label)] };
}

/**
 * The behaviour every ProxyStore has, whatever keeps it: call inside a `describe` of the store's
 * own test file. `openBacking` runs before each test.
 */
export function runProxyStoreContract(openBacking: () => Promise<StoreBacking>): void {
  let backing: StoreBacking;
  let opened: ProxyStore[];
  const open = async (): Promise<ProxyStore> => {
    const store = await backing.open();
    opened.push(store);
    return store;
  };

  beforeEach(async () => {
    backing = await openBacking();
    opened = [];
  });
  afterEach(async () => {
    for (const store of opened) await store.close();
    await backing.dispose();
  });

  it('answers undefined for every missing key, in order, and [] for no keys', async () => {
    const store = await open();
    const present = randomKey();
    await store.putCompaction(present, sampleCompaction('present'));
    const answers = await store.getCompactions([randomKey(), present, randomKey()]);
    expect(answers).toHaveLength(3);
    expect(answers[0]).toBeUndefined();
    expect(answers[1]).toEqual(sampleCompaction('present'));
    expect(answers[2]).toBeUndefined();
    expect(await store.getCompactions([])).toEqual([]);
  });

  it('round-trips a compaction of arbitrary JSON messages exactly, under its key only', async () => {
    const store = await open();
    const [first, second] = [randomKey(), randomKey()];
    await store.putCompaction(first, sampleCompaction('first'));
    await store.putCompaction(second, sampleCompaction('second'));
    const [readFirst, readSecond, again] = await store.getCompactions([first, second, first]);
    expect(JSON.stringify(readFirst)).toBe(JSON.stringify(sampleCompaction('first')));
    expect(JSON.stringify(readSecond)).toBe(JSON.stringify(sampleCompaction('second')));
    expect(again).toEqual(readFirst);
    const pollutedMessage = readFirst!.messages[4] as Record<string, unknown>;
    expect(Object.prototype.hasOwnProperty.call(pollutedMessage, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('replaces a compaction put again under the same key', async () => {
    const store = await open();
    const key = randomKey();
    await store.putCompaction(key, sampleCompaction('old'));
    await store.putCompaction(key, { ...sampleCompaction('new'), coveredMessages: 40 });
    const [entry] = await store.getCompactions([key]);
    expect(entry).toEqual({ ...sampleCompaction('new'), coveredMessages: 40 });
  });

  it('shares compactions between two instances of the same backing', async () => {
    const [writer, reader] = [await open(), await open()];
    const key = randomKey();
    expect(await reader.getCompactions([key])).toEqual([undefined]);
    await writer.putCompaction(key, sampleCompaction('shared'));
    expect(await reader.getCompactions([key])).toEqual([sampleCompaction('shared')]);
  });

  it('round-trips removed content byte for byte (unicode, 1 MB), undefined when missing', async () => {
    const [writer, reader] = [await open(), await open()];
    const unicode = 'ünïcödé ✓ 日本語 🎉\r\n\ttab\u0000nul';
    const large = `${'0123456789abcdef✓'.repeat(65_536)}end`;
    for (const content of [unicode, large, '']) {
      const sha256 = sha256Hex(content);
      await writer.putRemoved(sha256, content);
      const read = await reader.getRemoved(sha256);
      expect(read !== undefined && Buffer.from(read, 'utf8').equals(Buffer.from(content, 'utf8'))).toBe(true);
    }
    expect(Buffer.byteLength(large)).toBeGreaterThan(1_000_000);
    expect(await reader.getRemoved(randomKey())).toBeUndefined();
  });

  it('keeps removed content the caller redacted (it no longer hashes to its name)', async () => {
    const store = await open();
    const original = 'token=sk-live-abcdefghijklmnop';
    const sha256 = sha256Hex(original);
    await store.putRemoved(sha256, 'token=[redacted]');
    expect(await store.getRemoved(sha256)).toBe('token=[redacted]');
  });

  it('keeps removed content already saved under a name (putRemoved writes only a missing entry)', async () => {
    const [first, second] = [await open(), await open()];
    const content = 'password=hunter2-hunter2';
    const sha256 = sha256Hex(content);
    await first.putRemoved(sha256, content);
    await second.putRemoved(sha256, 'password=[redacted]');
    expect(await first.getRemoved(sha256)).toBe(content);
    expect(await second.getRemoved(sha256)).toBe(content);
  });

  it('refuses keys that are not sha256s, before touching the store', async () => {
    const store = await open();
    for (const bad of ['../x', '', 'A'.repeat(64), `${'a'.repeat(63)}*`, 'a'.repeat(65)]) {
      await expect(store.getCompactions([bad]), bad).rejects.toMatchObject({ name: 'InvalidArgumentError' });
      await expect(store.putCompaction(bad, sampleCompaction('bad')), bad).rejects.toMatchObject({ name: 'InvalidArgumentError' });
      await expect(store.putRemoved(bad, 'x'), bad).rejects.toMatchObject({ name: 'InvalidArgumentError' });
      await expect(store.getRemoved(bad), bad).rejects.toMatchObject({ name: 'InvalidArgumentError' });
      await expect(store.tryLock(bad, 1_000), bad).rejects.toMatchObject({ name: 'InvalidArgumentError' });
    }
    await expect(store.tryLock(randomKey(), 0)).rejects.toMatchObject({ name: 'InvalidArgumentError' });
    await expect(store.tryLock(randomKey(), Number.NaN)).rejects.toMatchObject({ name: 'InvalidArgumentError' });
  });

  it('holds a lock against every instance until it is released', async () => {
    const [first, second] = [await open(), await open()];
    const key = randomKey();
    const release = await first.tryLock(key, 60_000);
    expect(release).toBeTypeOf('function');
    expect(await first.tryLock(key, 60_000)).toBeUndefined();
    expect(await second.tryLock(key, 60_000)).toBeUndefined();
    // Another key is another lock.
    const other = await second.tryLock(randomKey(), 60_000);
    expect(other).toBeTypeOf('function');
    await release!();
    const next = await second.tryLock(key, 60_000);
    expect(next).toBeTypeOf('function');
    // Releasing twice is harmless: the second call does not remove the new holder's lock.
    await release!();
    expect(await first.tryLock(key, 60_000)).toBeUndefined();
    await next!();
    await other!();
  });

  it('lets another take a lock whose TTL passed, and an old holder release never removes theirs', async () => {
    const [first, second, third] = [await open(), await open(), await open()];
    const key = randomKey();
    const expired = await first.tryLock(key, 30);
    expect(expired).toBeTypeOf('function');
    const taken = await eventually(() => second.tryLock(key, 60_000));
    await expired!();
    expect(await third.tryLock(key, 60_000)).toBeUndefined();
    await taken();
    expect(await third.tryLock(key, 60_000)).toBeTypeOf('function');
  });
}
