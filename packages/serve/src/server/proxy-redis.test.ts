import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import type { RequestReport } from '../compaction/request-compactor.js';
import { createRedisStore } from '../store/redis-store.js';
import type { SearchableProxyStore } from '../store/searchable-proxy-store.js';
import { contextFields, fileText, question } from '../test-support/agent-conversation.js';
import { countingFold } from '../test-support/counting-fold.js';
import { SMALL_MODEL } from '../test-support/proxy-harness.js';
import { redisServerAvailable, startRedisServer, type RedisServer } from '../test-support/redis-server.js';
import { startProxyServer, type ProxyServer } from './proxy-server.js';

// fold, counting its calls: two proxies in this process share the count.
const counting = countingFold();

interface Replica {
  readonly proxy: ProxyServer;
  readonly store: SearchableProxyStore;
  readonly reports: RequestReport[];
  readonly logdir: string;
}

describe.skipIf(!redisServerAvailable())('two ollm serve replicas sharing one Redis', () => {
  let redis: RedisServer;
  let fake: FakeModelServer;
  const replicas: Replica[] = [];

  beforeAll(async () => {
    redis = await startRedisServer();
    fake = await startFakeModelServer({ models: [SMALL_MODEL], enforceWindow: true });
    for (let index = 0; index < 2; index += 1) {
      // Each replica has its own Redis client, logdir and in-process state, as on two machines.
      const store = await createRedisStore({ url: redis.url });
      const logdir = mkdtempSync(join(tmpdir(), `ollm-serve-replica-${index}-`));
      const reports: RequestReport[] = [];
      const proxy = await startProxyServer({
        upstream: fake.url,
        port: 0,
        stages: [counting.stage],
        pipeline: 'fold',
        store,
        logdir,
        onChat: (report) => reports.push(report),
      });
      replicas.push({ proxy, store, reports, logdir });
    }
  });

  afterAll(async () => {
    for (const { proxy, store, logdir } of replicas) {
      await proxy.close();
      await store.close();
      rmSync(logdir, { recursive: true, force: true });
    }
    await fake?.close();
    await redis?.stop();
  });

  it("reuses each other's compactions turn by turn, and one compaction's removed content is recoverable from the shared store", async () => {
    const clients = replicas.map(({ proxy }) => new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: 'local', maxRetries: 0 }));
    const messages: ChatCompletionMessageParam[] = [{ role: 'system', content: 'You are a coding agent.' }];
    const served: { replica: number; fields: Record<string, string> }[] = [];
    for (let turn = 0; turn < 60; turn += 1) {
      messages.push({ role: 'user', content: question(turn) });
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: `c${turn}`, type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }],
      });
      messages.push({ role: 'tool', tool_call_id: `c${turn}`, content: fileText(turn) });
      // A load balancer sends turns to the two replicas in turn, three at a time (so compactions,
      // every few turns, land on both whatever their cadence).
      const replica = Math.floor(turn / 3) % 2;
      const { data, response } = await clients[replica]!.chat.completions.create({ model: SMALL_MODEL.name, messages, max_tokens: 100 }).withResponse();
      served.push({ replica, fields: contextFields(response.headers.get('x-ollm-context')) });
      messages.push({ role: 'assistant', content: data.choices[0]?.message.content ?? '' });
    }
    expect(fake.requests.filter((request) => request.path === '/v1/chat/completions').every((request) => request.promptTokens + 100 <= 4096)).toBe(true);
    // A turn right after a compaction, on the other replica, reuses it without compacting.
    const handedOver = served.filter(({ fields }, turn) => turn > 0 && served[turn - 1]!.fields['action'] === 'compacted' && fields['action'] === 'reused');
    expect(handedOver.length).toBeGreaterThan(3);
    expect(handedOver.every(({ fields }) => fields['processed'] === '0')).toBe(true);
    // Compactions on one replica build on the other's: every compaction after the first started from a cached one.
    const compacted = served.filter(({ fields }) => fields['action'] === 'compacted');
    expect(compacted.slice(1).every(({ fields }) => Number(fields['reused']) > 0)).toBe(true);
    expect(new Set(compacted.map(({ replica }) => replica))).toEqual(new Set([0, 1]));
    // One replica's pipeline per compaction, never both's: a compaction tries to keep what the last
    // one wrote, then the newest turn as it came, then runs on the whole: at most three runs.
    expect(counting.compactions).toBeGreaterThanOrEqual(compacted.length);
    expect(counting.compactions).toBeLessThanOrEqual(compacted.length * 3);

    // What one replica removed, the other's store (and `ollm recover --store`) reads back.
    const reference = replicas[0]!.reports.concat(replicas[1]!.reports).flatMap((report) => report.references)[0]!;
    const owner = replicas.find(({ reports }) => reports.some((report) => report.removedNow > 0 && report.references.includes(reference)));
    const other = replicas.find((replica) => replica !== owner) ?? replicas[1]!;
    expect(await other.store.findRemoved(reference.slice(0, 12))).toEqual([reference]);
    expect((await other.store.getRemoved(reference))?.length).toBeGreaterThan(0);
  });

  it('compacts a conversation once when the same request reaches both replicas at the same time', async () => {
    const before = counting.compactions;
    const messages: Record<string, unknown>[] = [{ role: 'system', content: 'Concurrent replicas.' }];
    for (let turn = 0; turn < 40; turn += 1) {
      messages.push({ role: 'user', content: `${question(turn)} (concurrent)` });
      messages.push({ role: 'assistant', content: `It returns ${turn}.` });
      messages.push({ role: 'user', content: fileText(turn) });
      messages.push({ role: 'assistant', content: 'Noted.' });
    }
    messages.push({ role: 'user', content: 'Summarise.' });
    const responses = await Promise.all(
      replicas.map(({ proxy }) =>
        fetch(`${proxy.url}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: SMALL_MODEL.name, max_tokens: 100, messages }) }),
      ),
    );
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    expect(counting.compactions - before).toBe(1);
    const sent = fake.requests.slice(-2).map((request) => request.body);
    expect(sent[0]).toEqual(sent[1]);
  });
});
