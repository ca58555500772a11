import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContextProvider, LanguageModel } from '@ollm/core';
import { startFakeModelServer, type FakeModel, type FakeModelServer, type FakeModelServerOptions } from '@ollm/fake-model-server';
import fold from '@ollm/plugin-fold';
import type { RequestReport } from '../compaction/request-compactor.js';
import { startProxyServer, type ProxyServer, type ProxyServerOptions } from '../server/proxy-server.js';
import { createMemoryStore } from '../store/memory-store.js';
import type { ProxyStore } from '../store/proxy-store.js';

/** A 4,096-token model, the window the proxy's tests hold conversations to. */
export const SMALL_MODEL: FakeModel = { name: 'small:4k', family: 'llama', parameterSize: '8.0B', contextLength: 4096 };

export interface ProxyHarness {
  readonly fake: FakeModelServer;
  readonly proxy: ProxyServer;
  readonly store: ProxyStore;
  readonly logdir: string;
  /** Every chat request's report, in order. */
  readonly reports: RequestReport[];
  readonly logs: string[];
  close(): Promise<void>;
}

/** A fake model server that refuses over-window requests, and a proxy in front of it (fold, a memory store). */
export async function startProxyHarness(
  options: {
    readonly fake?: FakeModelServerOptions;
    readonly proxy?: Partial<ProxyServerOptions>;
    readonly store?: ProxyStore;
    readonly stages?: readonly ContextProvider[];
    /** An upstream other than the fake server's (e.g. one nothing listens on). */
    readonly upstream?: string;
    /** A model for model stages, given the fake server's URL. */
    readonly summaryModel?: (fakeUrl: string) => LanguageModel;
  } = {},
): Promise<ProxyHarness> {
  const fake = await startFakeModelServer({ models: [SMALL_MODEL], enforceWindow: true, ...options.fake });
  const logdir = mkdtempSync(join(tmpdir(), 'ollm-serve-'));
  const store = options.store ?? createMemoryStore();
  const reports: RequestReport[] = [];
  const logs: string[] = [];
  const log = (line: string) => logs.push(line);
  const proxy = await startProxyServer({
    upstream: options.upstream ?? fake.url,
    api: 'ollama',
    port: 0,
    stages: options.stages ?? [fold],
    pipeline: (options.stages ?? [fold]).map((stage) => stage.name).join(','),
    store,
    logdir,
    logger: { debug: () => {}, info: log, warn: log },
    onChat: (report) => reports.push(report),
    ...(options.summaryModel ? { model: options.summaryModel(fake.url) } : {}),
    ...options.proxy,
  });
  return {
    fake,
    proxy,
    store,
    logdir,
    reports,
    logs,
    async close() {
      await proxy.close();
      await fake.close();
      await store.close();
      rmSync(logdir, { recursive: true, force: true });
    },
  };
}
