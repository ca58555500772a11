import type { CachedCompaction, ProxyStore } from './proxy-store.js';

/**
 * A store in this process's memory: for tests, benchmarks and embedding the proxy in a program
 * that keeps nothing between runs. Entries are copied in and out as JSON, as the other stores
 * serialise them, so a caller never shares objects with the store.
 */
export function createMemoryStore(): ProxyStore & { readonly compactions: ReadonlyMap<string, string> } {
  const compactions = new Map<string, string>();
  const removed = new Map<string, string>();
  const locks = new Map<string, { token: symbol; expires: number }>();
  return {
    kind: 'memory',
    compactions,
    async getCompactions(keys) {
      return keys.map((key) => {
        const text = compactions.get(key);
        return text === undefined ? undefined : (JSON.parse(text) as CachedCompaction);
      });
    },
    async putCompaction(key, entry) {
      compactions.set(key, JSON.stringify(entry));
    },
    async putRemoved(sha256, content) {
      removed.set(sha256, content);
    },
    async getRemoved(sha256) {
      return removed.get(sha256);
    },
    async tryLock(key, ttlMs) {
      const held = locks.get(key);
      if (held && held.expires > Date.now()) return undefined;
      const token = Symbol(key);
      locks.set(key, { token, expires: Date.now() + ttlMs });
      return async () => {
        if (locks.get(key)?.token === token) locks.delete(key);
      };
    },
    async close() {},
  };
}
