import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModelServer, type FakeModel, type FakeModelServer } from '@ollm/fake-model-server';
import fold from '@ollm/plugin-fold';
import { createFileStore, createMemoryStore, startProxyServer, type ProxyServer, type ProxyStore, type RequestReport } from '@ollm/serve';
import type { ChatSettings } from './chat-client.js';

/** The model every request names: a 4,096-token window, which the proxy learns from `/api/show`. */
export const SERVE_MODEL: FakeModel = { name: 'small:4k', family: 'llama', parameterSize: '8.0B', contextLength: 4096 };
export const SERVE_WINDOW = 4096;
/** `max_tokens` / `num_predict` of every request: the reserve the proxy keeps for the reply. */
export const SERVE_REPLY_LIMIT = 256;
export const SERVE_PIPELINE = 'fold';
/** The header that tells the fake server's record which requests came through a proxy. */
const ROUTE_HEADER = 'x-ollm-bench-route';

export type StoreKind = 'memory' | 'files';
export const STORE_KINDS: readonly StoreKind[] = ['memory', 'files'];

export interface BenchProxy {
  readonly store: StoreKind;
  readonly url: string;
  /** `onChat`'s report of every chat request, in the order they finished. */
  readonly reports: RequestReport[];
}

/** What the fake server received since the last `takeRecord`. */
export interface UpstreamRecord {
  readonly directChats: number;
  readonly proxiedChats: number;
  /** Proxied requests whose prompt and reply limit were over the window (the proxy's job is to make this 0). */
  readonly proxiedOverWindow: number;
  readonly largestDirectPrompt: number;
  readonly largestProxiedPrompt: number;
}

export interface ServeRig {
  readonly fake: FakeModelServer;
  readonly proxies: Readonly<Record<StoreKind, BenchProxy>>;
  /** Client settings for requests sent straight to the fake server (`direct`) or through a proxy. */
  settings(route: 'direct' | 'proxied'): ChatSettings;
  /** Reads and forgets the fake server's record of requests. */
  takeRecord(): Promise<UpstreamRecord>;
  /** A number no conversation of this run had: every conversation's messages are its own. */
  newConversation(): number;
  close(): Promise<void>;
}

/**
 * The fake model server and, in front of it, one `ollm serve` proxy per store (memory, files),
 * fold as the pipeline, all in this process. The fake server answers whatever it is sent (no
 * window enforced), so a direct request can carry a history no 4,096-token model would take;
 * the proxied requests are checked against the window from the server's own record instead.
 */
export async function startServeRig(): Promise<ServeRig> {
  const fake = await startFakeModelServer({ models: [SERVE_MODEL] });
  const folders: string[] = [];
  const proxies: Partial<Record<StoreKind, BenchProxy>> = {};
  const servers: ProxyServer[] = [];
  const stores: ProxyStore[] = [];
  try {
    for (const kind of STORE_KINDS) {
      const home = mkdtempSync(join(tmpdir(), `ollm-bench-serve-${kind}-`));
      folders.push(home);
      const store = kind === 'memory' ? createMemoryStore() : createFileStore({ home });
      stores.push(store);
      const reports: RequestReport[] = [];
      const server = await startProxyServer({
        upstream: fake.url,
        api: 'ollama',
        port: 0,
        stages: [fold],
        pipeline: SERVE_PIPELINE,
        store,
        logdir: home,
        onChat: (report) => reports.push(report),
      });
      servers.push(server);
      proxies[kind] = { store: kind, url: server.url, reports };
    }
  } catch (error) {
    await Promise.allSettled(servers.map((server) => server.close()));
    await fake.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  let conversations = 0;
  return {
    fake,
    newConversation: () => (conversations += 1),
    proxies: proxies as Record<StoreKind, BenchProxy>,
    settings: (route) => ({ model: SERVE_MODEL.name, replyLimit: SERVE_REPLY_LIMIT, window: SERVE_WINDOW, headers: { [ROUTE_HEADER]: route } }),
    async takeRecord() {
      let directChats = 0;
      let proxiedChats = 0;
      let proxiedOverWindow = 0;
      let largestDirectPrompt = 0;
      let largestProxiedPrompt = 0;
      for (const request of fake.requests) {
        if (request.path !== '/v1/chat/completions' && request.path !== '/api/chat') continue;
        if (request.headers[ROUTE_HEADER] === 'proxied') {
          proxiedChats += 1;
          largestProxiedPrompt = Math.max(largestProxiedPrompt, request.promptTokens);
          if (request.promptTokens + (request.maxTokens ?? 0) > SERVE_WINDOW) proxiedOverWindow += 1;
        } else {
          directChats += 1;
          largestDirectPrompt = Math.max(largestDirectPrompt, request.promptTokens);
        }
      }
      await fake.reset();
      return { directChats, proxiedChats, proxiedOverWindow, largestDirectPrompt, largestProxiedPrompt };
    },
    async close() {
      await Promise.allSettled(servers.map((server) => server.close()));
      await fake.close();
      await Promise.allSettled(stores.map((store) => store.close()));
      for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Several records as one: counts added up, the largest prompts kept. */
export function addUpstreamRecords(records: readonly UpstreamRecord[]): UpstreamRecord {
  return {
    directChats: records.reduce((sum, record) => sum + record.directChats, 0),
    proxiedChats: records.reduce((sum, record) => sum + record.proxiedChats, 0),
    proxiedOverWindow: records.reduce((sum, record) => sum + record.proxiedOverWindow, 0),
    largestDirectPrompt: Math.max(0, ...records.map((record) => record.largestDirectPrompt)),
    largestProxiedPrompt: Math.max(0, ...records.map((record) => record.largestProxiedPrompt)),
  };
}

/** Resolves once `reports` holds more than `count` entries (the proxy reports a chat just after its last byte left). */
export async function reportAfter(reports: readonly RequestReport[], count: number): Promise<RequestReport> {
  for (let waited = 0; reports.length <= count; waited += 1) {
    if (waited > 10_000) throw new Error('ollm serve did not report the chat request');
    await new Promise((resolve) => setImmediate(resolve));
  }
  return reports[count]!;
}
