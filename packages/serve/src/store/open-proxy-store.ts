import { InvalidArgumentError, stripUrlCredentials } from '@ollm/core';
import { createFileStore } from './file-store.js';
import { createRedisStore, type RedisStoreOptions } from './redis-store.js';
import type { SearchableProxyStore } from './searchable-proxy-store.js';

export interface OpenProxyStoreOptions extends Omit<RedisStoreOptions, 'url'> {
  /** The ollm home the file store keeps its files under. */
  readonly home: string;
}

/**
 * The store `--store` names: `files` (or nothing) keeps it under the ollm home; a `redis://` or
 * `rediss://` URL shares it through Redis (connected before this resolves). The other options
 * apply to Redis only.
 */
export async function openProxyStore(spec: string | undefined, options: OpenProxyStoreOptions): Promise<SearchableProxyStore> {
  const { home, ...redisOptions } = options;
  if (spec === undefined || spec === 'files') return createFileStore({ home });
  if (/^rediss?:\/\//i.test(spec)) return createRedisStore({ ...redisOptions, url: spec });
  throw new InvalidArgumentError({ argument: 'store', message: `--store must be "files" or a redis:// URL, got ${JSON.stringify(stripUrlCredentials(spec))}` });
}
