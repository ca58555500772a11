import type { ProxyStore } from './proxy-store.js';

/**
 * A ProxyStore that can also list what it saved: what `openProxyStore` returns, so `ollm recover`
 * resolves a short prefix the same way in files and in Redis. Kept apart from ProxyStore so a
 * proxy (or a test's fake store) needs nothing it does not use.
 */
export interface SearchableProxyStore extends ProxyStore {
  /** The sha256 of every piece of removed content saved whose name starts with `prefix` (1 to 64 hex digits), sorted. */
  findRemoved(prefix: string): Promise<string[]>;
}
