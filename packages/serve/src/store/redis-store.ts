import { randomBytes } from 'node:crypto';
import { InvalidArgumentError, sha256Hex, stripUrlCredentials } from '@ollm/core';
import { parseCachedCompaction } from './parse-cached-compaction.js';
import type { CachedCompaction } from './proxy-store.js';
import type { SearchableProxyStore } from './searchable-proxy-store.js';
import { checkLockTtl, checkStoreKey, checkStoreKeyPrefix } from './store-key.js';
import { StoreUnavailableError } from './store-unavailable-error.js';

export interface RedisStoreOptions {
  /** `redis://[[user]:password@]host[:port][/db]` or `rediss://…` (TLS). */
  readonly url: string;
  /** Put before every key, so several deployments can share one Redis (default `ollm:`). */
  readonly keyPrefix?: string;
  /** How long a cached compaction lives (default 7 days); removed content has no TTL. */
  readonly compactionTtlSeconds?: number;
  /** How long connecting may take (default 5 s). */
  readonly connectTimeoutMs?: number;
  /** How long one command may take before it fails (default 5 s): a stalled Redis must not stall every request. */
  readonly commandTimeoutMs?: number;
}

export const DEFAULT_REDIS_KEY_PREFIX = 'ollm:';
export const DEFAULT_COMPACTION_TTL_SECONDS = 7 * 24 * 60 * 60;

/** Deletes the lock only while it still holds this taker's token: an expired lock someone else took stays theirs. */
const RELEASE_LOCK_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0`;

/**
 * Saves removed content once (content-addressed: an entry already there is the same piece), with
 * its redaction marker in the same step: ARGV[2] is the sha256 of what is stored when that is not
 * the entry's name (the caller redacted secrets from it), else empty.
 */
const PUT_REMOVED_SCRIPT = `if redis.call('exists', KEYS[1]) == 1 then return 0 end
if ARGV[2] == '' then redis.call('del', KEYS[2]) else redis.call('set', KEYS[2], ARGV[2]) end
redis.call('set', KEYS[1], ARGV[1])
return 1`;

/**
 * The proxy's store shared through Redis, so several proxy replicas reuse each other's
 * compactions and take the same locks. Keys (under `keyPrefix`):
 * - `compaction:<key>`: a CachedCompaction as JSON, with a TTL (`compactionTtlSeconds`); the
 *   proxy reads every prefix of a request with one MGET.
 * - `removed:<sha256>`: removed content, with no TTL: its retention is the operator's (a
 *   `maxmemory-policy`, or deleting old keys), as `ollm gc` is for the file store.
 * - `redacted:<sha256>`: beside an entry the caller redacted secrets from, the sha256 of what
 *   is stored, so it is told from a damaged one (core's `.redacted` marker).
 * - `lock:<key>`: `SET NX PX` with a random token, released by a compare-and-delete script.
 * Connects before it resolves: a URL where nothing answers, or refused credentials, is a
 * StoreUnavailableError naming the URL without its credentials. The password is never logged
 * or stored by ollm. Commands fail after `commandTimeoutMs` and are not queued while the client
 * is reconnecting, so an unreachable Redis makes calls fail (StoreUnavailableError) instead of
 * waiting.
 */
export async function createRedisStore(options: RedisStoreOptions): Promise<SearchableProxyStore> {
  const {
    url,
    keyPrefix = DEFAULT_REDIS_KEY_PREFIX,
    compactionTtlSeconds = DEFAULT_COMPACTION_TTL_SECONDS,
    connectTimeoutMs = 5_000,
    commandTimeoutMs = 5_000,
  } = options;
  const displayUrl = checkRedisUrl(url);
  if (!Number.isInteger(compactionTtlSeconds) || compactionTtlSeconds <= 0) {
    throw new InvalidArgumentError({
      argument: 'compactionTtlSeconds',
      message: `compactionTtlSeconds must be a positive whole number, got ${String(compactionTtlSeconds)}`,
    });
  }
  if (typeof keyPrefix !== 'string') throw new InvalidArgumentError({ argument: 'keyPrefix', message: 'keyPrefix must be a string' });

  // Loaded here, not with the module: node-redis takes a fifth of a second to load, and a proxy
  // (or `ollm recover`) on the file store never needs it.
  const redis = await import('redis');
  let connected = false;
  let lastError: unknown;
  const client = redis.createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: commandTimeoutMs },
    socket: {
      connectTimeout: connectTimeoutMs,
      // The first connection fails at once (a wrong URL should say so, not hang); a lost one is retried with backoff.
      reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(50 * 2 ** retries, 2_000) : cause),
    },
  });
  // Reported through the call that fails; kept to say why a call found the client offline.
  client.on('error', (error: unknown) => (lastError = error));

  const failure = (action: string, error: unknown): StoreUnavailableError =>
    new StoreUnavailableError({
      url: displayUrl,
      message: `Redis store at ${displayUrl}: ${action} failed: ${describeFailure(redis, error, lastError, commandTimeoutMs)}`,
      cause: error,
    });
  const run = async <T>(action: string, command: () => Promise<T>): Promise<T> => {
    try {
      return await command();
    } catch (error) {
      throw failure(action, error);
    }
  };

  try {
    await client.connect();
    connected = true;
  } catch (error) {
    try {
      client.destroy();
    } catch {
      // Never opened: nothing to end.
    }
    throw new StoreUnavailableError({
      url: displayUrl,
      message: `Cannot connect to the Redis store at ${displayUrl}: ${describeFailure(redis, error, undefined, commandTimeoutMs)}`,
      cause: error,
    });
  }

  const compactionKey = (key: string): string => `${keyPrefix}compaction:${checkStoreKey('key', key)}`;
  const removedKey = (sha256: string): string => `${keyPrefix}removed:${sha256}`;
  const redactedKey = (sha256: string): string => `${keyPrefix}redacted:${sha256}`;
  let closing: Promise<void> | undefined;

  return {
    kind: 'redis',

    async getCompactions(keys: readonly string[]): Promise<(CachedCompaction | undefined)[]> {
      const redisKeys = keys.map(compactionKey);
      if (redisKeys.length === 0) return [];
      const values = await run('MGET', () => client.mGet(redisKeys));
      return values.map((value) => parseCachedCompaction(value));
    },

    async putCompaction(key: string, entry: CachedCompaction): Promise<void> {
      const redisKey = compactionKey(key);
      const text = JSON.stringify(entry);
      await run('SET', () => client.set(redisKey, text, { expiration: { type: 'EX', value: compactionTtlSeconds } }));
    },

    async putRemoved(sha256: string, content: string): Promise<void> {
      checkStoreKey('sha256', sha256);
      const stored = sha256Hex(content);
      await run('saving removed content', () =>
        client.eval(PUT_REMOVED_SCRIPT, { keys: [removedKey(sha256), redactedKey(sha256)], arguments: [content, stored === sha256 ? '' : stored] }),
      );
    },

    async getRemoved(sha256: string): Promise<string | undefined> {
      checkStoreKey('sha256', sha256);
      const [content, marker] = await run('MGET', () => client.mGet([removedKey(sha256), redactedKey(sha256)]));
      if (typeof content !== 'string') return undefined;
      const actual = sha256Hex(content);
      // Intact, or redacted and still what was stored; anything else was changed since.
      return actual === sha256 || marker?.trim() === actual ? content : undefined;
    },

    async findRemoved(prefix: string): Promise<string[]> {
      checkStoreKeyPrefix('prefix', prefix);
      const start = removedKey('');
      const found = new Set<string>();
      await run('SCAN', async () => {
        for await (const keys of client.scanIterator({ MATCH: `${escapeGlob(start)}${prefix}*`, COUNT: 1_000 })) {
          for (const key of keys) {
            const sha256 = key.slice(start.length);
            if (key.startsWith(start) && /^[0-9a-f]{64}$/.test(sha256)) found.add(sha256);
          }
        }
      });
      return [...found].sort();
    },

    async tryLock(key: string, ttlMs: number): Promise<(() => Promise<void>) | undefined> {
      const lockKey = `${keyPrefix}lock:${checkStoreKey('key', key)}`;
      const ttl = checkLockTtl(ttlMs);
      const token = randomBytes(16).toString('hex');
      const reply = await run('SET NX', () => client.set(lockKey, token, { expiration: { type: 'PX', value: ttl }, condition: 'NX' }));
      if (reply !== 'OK') return undefined;
      let released = false;
      return async () => {
        if (released) return;
        released = true;
        try {
          await client.eval(RELEASE_LOCK_SCRIPT, { keys: [lockKey], arguments: [token] });
        } catch {
          // Redis cannot be reached: the lock expires after its TTL.
        }
      };
    },

    close(): Promise<void> {
      closing ??= (async () => {
        try {
          if (client.isOpen) await client.close();
        } catch {
          client.destroy();
        }
      })();
      return closing;
    },
  };
}

/** The URL as it may be shown (credentials replaced by `[redacted]`), once it is known to be a Redis URL. */
function checkRedisUrl(url: string): string {
  const display = typeof url === 'string' ? stripUrlCredentials(url) : String(url);
  let protocol: string | undefined;
  try {
    protocol = new URL(url).protocol;
  } catch {
    protocol = undefined;
  }
  if (protocol !== 'redis:' && protocol !== 'rediss:') {
    throw new InvalidArgumentError({ argument: 'url', message: `a Redis store needs a redis:// or rediss:// URL, got ${JSON.stringify(display)}` });
  }
  return display;
}

/** One line on what went wrong, credentials removed: node-redis wraps the socket's error, and `localhost` may fail on two addresses at once. */
function describeFailure(redis: typeof import('redis'), error: unknown, lastError: unknown, commandTimeoutMs: number): string {
  const original = (error as { originalError?: unknown } | undefined)?.originalError ?? error;
  let text = original instanceof redis.TimeoutError && original.message === '' ? `no reply within ${commandTimeoutMs} ms` : messageOf(original);
  // "The client is offline": say why it is.
  if (original instanceof redis.ClientOfflineError && lastError !== undefined) text = `${text} (${messageOf(lastError)})`;
  return stripUrlCredentials(text);
}

function messageOf(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map(messageOf).join('; ');
  if (error instanceof Error) return error.message || (error as NodeJS.ErrnoException).code || error.name;
  return String(error);
}

/** Redis glob patterns treat `*?[]\` specially: a key prefix must match only itself. */
function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (character) => `\\${character}`);
}
