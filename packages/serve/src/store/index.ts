export type { CachedCompaction, ProxyStore } from './proxy-store.js';
export type { SearchableProxyStore } from './searchable-proxy-store.js';
export { StoreUnavailableError } from './store-unavailable-error.js';
export type { ExpireCompactionsOptions, FileStoreOptions } from './file-store.js';
export { FILE_COMPACTION_TTL_SECONDS, SERVE_FOLDER, createFileStore, expireCompactions } from './file-store.js';
export type { RedisStoreOptions } from './redis-store.js';
export { DEFAULT_COMPACTION_TTL_SECONDS, DEFAULT_REDIS_KEY_PREFIX, createRedisStore } from './redis-store.js';
export type { OpenProxyStoreOptions } from './open-proxy-store.js';
export { openProxyStore } from './open-proxy-store.js';
