import { describe, expect, it } from 'vitest';
import { contextFields, fileText, question } from '../test-support/agent-conversation.js';
import { countingFold } from '../test-support/counting-fold.js';
import { SMALL_MODEL, startProxyHarness } from '../test-support/proxy-harness.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { ProxyStore } from '../store/proxy-store.js';

const counting = countingFold();

/** A conversation over the 4,096-token window: the proxy compacts it. */
function longConversation(): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [{ role: 'system', content: 'Locks between replicas.' }];
  for (let turn = 0; turn < 40; turn += 1) {
    messages.push({ role: 'user', content: question(turn) });
    messages.push({ role: 'assistant', content: `It returns ${turn}.` });
    messages.push({ role: 'user', content: fileText(turn) });
    messages.push({ role: 'assistant', content: 'Noted.' });
  }
  messages.push({ role: 'user', content: 'Summarise.' });
  return messages;
}

async function chat(url: string, messages: readonly Record<string, unknown>[]) {
  const response = await fetch(`${url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: SMALL_MODEL.name, max_tokens: 100, messages }) });
  return { response, body: await response.text() };
}

/** The other replica's compaction of `messages`, as it stores it: its key and its JSON. */
async function otherReplicaEntry(messages: readonly Record<string, unknown>[]): Promise<[string, string]> {
  const other = await startProxyHarness({ stages: [counting.stage], proxy: { pipeline: 'fold' } });
  try {
    const { response, body } = await chat(other.proxy.url, messages);
    expect(response.status, body).toBe(200);
    const entries = [...(other.store as ReturnType<typeof createMemoryStore>).compactions];
    expect(entries).toHaveLength(1);
    return entries[0]!;
  } finally {
    await other.close();
  }
}

/** Sends `messages` through a proxy on `store`; expects no compaction of its own and the other replica's messages upstream. */
async function expectReused(store: ProxyStore, messages: readonly Record<string, unknown>[], stored: [string, string]): Promise<void> {
  const harness = await startProxyHarness({ stages: [counting.stage], store, proxy: { pipeline: 'fold' } });
  try {
    const before = counting.compactions;
    const { response, body } = await chat(harness.proxy.url, messages);
    expect(response.status, body).toBe(200);
    expect(counting.compactions - before).toBe(0);
    expect(contextFields(response.headers.get('x-ollm-context'))['processed']).toBe('0');
    expect((harness.fake.requests.at(-1)?.body as { messages?: unknown } | undefined)?.messages).toEqual(JSON.parse(stored[1]).messages);
  } finally {
    await harness.close();
  }
}

describe('proxies sharing a store: a conversation is compacted once', () => {
  it('a proxy waiting for the lock uses the entry the holder stored just before letting the lock go', async () => {
    const messages = longConversation();
    const stored = await otherReplicaEntry(messages);
    // The other replica holds the lock when this one asks for it, and stores its entry and lets
    // the lock go right after this one's first look: between the look and the next try for the lock.
    const shared = createMemoryStore();
    let otherRelease: (() => Promise<void>) | undefined;
    let finished = false;
    const store: ProxyStore = {
      ...shared,
      async tryLock(key, ttlMs) {
        if (otherRelease === undefined && !finished) otherRelease = await shared.tryLock(key, ttlMs);
        return shared.tryLock(key, ttlMs);
      },
      async getCompactions(keys) {
        const found = await shared.getCompactions(keys);
        if (otherRelease !== undefined && !finished && keys.length === 1 && keys[0] === stored[0]) {
          finished = true;
          await shared.putCompaction(stored[0], JSON.parse(stored[1]));
          await otherRelease();
        }
        return found;
      },
    };
    await expectReused(store, messages, stored);
    expect(finished).toBe(true);
  });

  it('a proxy that gets the lock uses the entry another stored after this one looked for it', async () => {
    const messages = longConversation();
    const stored = await otherReplicaEntry(messages);
    // The other replica compacts, stores and lets the lock go between this one's lookup and its lock.
    const shared = createMemoryStore();
    let finished = false;
    const store: ProxyStore = {
      ...shared,
      async tryLock(key, ttlMs) {
        if (!finished && key === stored[0]) {
          finished = true;
          await shared.putCompaction(stored[0], JSON.parse(stored[1]));
        }
        return shared.tryLock(key, ttlMs);
      },
    };
    await expectReused(store, messages, stored);
    expect(finished).toBe(true);
  });
});
