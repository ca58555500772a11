// @ollm/serve: `ollm serve`, a proxy in front of an Ollama or OpenAI-compatible model server that
// makes every chat request fit the model's window (compacting with a pipeline, reusing earlier
// compactions of the same conversation), and passes everything else through unchanged.

export type { ProxyServer, ProxyServerOptions } from './server/proxy-server.js';
export { DEFAULT_SERVE_ADDRESS, DEFAULT_SERVE_PORT, DEFAULT_UPSTREAM_TIMEOUT_MS, startProxyServer } from './server/proxy-server.js';
export type { ChatDialect } from './server/chat-dialect.js';
export { CHAT_DIALECTS, OLLAMA_DIALECT, OPENAI_DIALECT, chatDialectFor } from './server/chat-dialect.js';
export { CONTEXT_HEADER, contextHeader, contextLogLine } from './server/context-report.js';
export type { ChatRequest, PreparedChat, RequestCompactorOptions, RequestReport } from './compaction/request-compactor.js';
export { COMPACTION_LOCK_MS, DEFAULT_TARGET_SHARE, RequestCompactor } from './compaction/request-compactor.js';
export { PREFIX_KEY_VERSION, prefixKeys } from './compaction/prefix-keys.js';
export type { ModelWindow, ModelWindowsOptions, WindowSource } from './upstream/model-windows.js';
export { ModelWindows, OLLAMA_SERVER_DEFAULT_WINDOW } from './upstream/model-windows.js';
export type { Upstream, UpstreamApi } from './upstream/upstream.js';
export { parseUpstream } from './upstream/upstream.js';
export { ProxyError } from './upstream/upstream-errors.js';
export type { ExpireCompactionsOptions, FileStoreOptions, OpenProxyStoreOptions, RedisStoreOptions, SearchableProxyStore } from './store/index.js';
export {
  DEFAULT_COMPACTION_TTL_SECONDS,
  DEFAULT_REDIS_KEY_PREFIX,
  FILE_COMPACTION_TTL_SECONDS,
  SERVE_FOLDER,
  StoreUnavailableError,
  createFileStore,
  createRedisStore,
  expireCompactions,
  openProxyStore,
} from './store/index.js';
export { createMemoryStore } from './store/memory-store.js';
export type { CachedCompaction, ProxyStore } from './store/proxy-store.js';
