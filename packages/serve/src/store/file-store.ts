import { readdirSync, rmSync, statSync, utimesSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { RECOVERY_FOLDER, REDACTED_MARKER_SUFFIX, readRemovedEntry, sha256Hex, writeFileAtomic } from '@ollm/core';
import { tryLockFile } from './file-lock.js';
import { parseCachedCompaction } from './parse-cached-compaction.js';
import type { CachedCompaction } from './proxy-store.js';
import type { SearchableProxyStore } from './searchable-proxy-store.js';
import { checkLockTtl, checkStoreKey, checkStoreKeyPrefix } from './store-key.js';

export interface FileStoreOptions {
  /** The ollm home (`$OLLM_HOME`, default ~/.ollm): also the logdir the proxy compacts with. */
  readonly home: string;
  /**
   * How long a compaction nobody reads stays (default 7 days, as in Redis): an older one is a
   * miss, and `ollm gc` deletes it. Each read keeps it fresh.
   */
  readonly compactionTtlSeconds?: number;
  /** The clock (ms since the epoch); tests inject one. */
  readonly now?: () => number;
}

/** How long a cached compaction nobody reads is kept in files, as in Redis. */
export const FILE_COMPACTION_TTL_SECONDS = 7 * 24 * 60 * 60;

/** Under the home: `serve/compactions/<first 2 hex>/<key>.json` and `serve/locks/<key>.lock`. */
export const SERVE_FOLDER = 'serve';

const savedFileName = /^([0-9a-f]{64})\.txt$/;

/**
 * The proxy's store on one machine, in files under the ollm home. Compactions are JSON files,
 * written through a temporary file and a rename (never half a file); one that cannot be read or
 * parsed is a miss. Removed content uses core's recovery layout (`<home>/removed/<sha256>.txt`,
 * with a `.redacted` marker when what is stored no longer hashes to its name), so `ollm recover`
 * and `ollm gc` see what the proxy saved. Locks are files that name their holder's pid and expiry.
 */
export function createFileStore({ home, compactionTtlSeconds = FILE_COMPACTION_TTL_SECONDS, now = Date.now }: FileStoreOptions): SearchableProxyStore {
  const compactionPath = (key: string): string => join(compactionsFolder(home), key.slice(0, 2), `${key}.json`);
  const removedFolder = join(home, RECOVERY_FOLDER);
  const removedPath = (sha256: string): string => join(removedFolder, `${sha256}.txt`);

  return {
    kind: 'files',

    async getCompactions(keys: readonly string[]): Promise<(CachedCompaction | undefined)[]> {
      const paths = keys.map((key) => compactionPath(checkStoreKey('key', key)));
      const oldest = now() - compactionTtlSeconds * 1000;
      return Promise.all(
        paths.map(async (path) => {
          const info = await stat(path).catch(() => undefined);
          if (!info || info.mtimeMs < oldest) return undefined;
          const entry = parseCachedCompaction(await readFile(path, 'utf8').catch(() => undefined));
          if (entry) touch(path, now());
          return entry;
        }),
      );
    },

    async putCompaction(key: string, entry: CachedCompaction): Promise<void> {
      writeFileAtomic(compactionPath(checkStoreKey('key', key)), JSON.stringify(entry));
    },

    async putRemoved(sha256: string, content: string): Promise<void> {
      const path = removedPath(checkStoreKey('sha256', sha256));
      // Usually saved already (the proxy compacts with logdir = home): kept, only touched so
      // `ollm gc` counts it as just saved. A damaged entry is written again, as core does.
      const existing = readEntryState(path, sha256);
      if (existing !== undefined && existing !== 'damaged') {
        touch(path, now());
        return;
      }
      const stored = sha256Hex(content);
      const marker = `${path.slice(0, -'.txt'.length)}${REDACTED_MARKER_SUFFIX}`;
      // Redacted by the caller: the marker (first, so a crash between the writes leaves an
      // entry that reads as damaged and is written again) tells `ollm recover` it is not damaged.
      if (stored !== sha256) writeFileAtomic(marker, `${stored}\n`);
      writeFileAtomic(path, content);
      if (stored === sha256) rmSync(marker, { force: true });
    },

    async getRemoved(sha256: string): Promise<string | undefined> {
      const path = removedPath(checkStoreKey('sha256', sha256));
      try {
        const entry = readRemovedEntry(path, sha256);
        return entry.state === 'damaged' ? undefined : entry.content.toString('utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },

    async findRemoved(prefix: string): Promise<string[]> {
      checkStoreKeyPrefix('prefix', prefix);
      let names: string[];
      try {
        names = readdirSync(removedFolder);
      } catch {
        // No recovery folder yet: nothing was ever saved.
        return [];
      }
      return names
        .flatMap((name) => savedFileName.exec(name)?.[1] ?? [])
        .filter((sha256) => sha256.startsWith(prefix))
        .sort();
    },

    async tryLock(key: string, ttlMs: number): Promise<(() => Promise<void>) | undefined> {
      const path = join(home, SERVE_FOLDER, 'locks', `${checkStoreKey('key', key)}.lock`);
      return tryLockFile(path, checkLockTtl(ttlMs));
    },

    async close(): Promise<void> {
      // Nothing is held open between calls.
    },
  };
}

function readEntryState(path: string, sha256: string): 'intact' | 'redacted' | 'damaged' | undefined {
  try {
    return readRemovedEntry(path, sha256).state;
  } catch {
    return undefined;
  }
}

function touch(path: string, at: number): void {
  const time = new Date(at);
  try {
    utimesSync(path, time, time);
  } catch {
    // A read-only store still serves reads; its age is only a hint.
  }
}

function compactionsFolder(home: string): string {
  return join(home, SERVE_FOLDER, 'compactions');
}

export interface ExpireCompactionsOptions {
  readonly home: string;
  readonly ttlSeconds?: number;
  readonly now?: number;
  /** Only say which would go. */
  readonly dryRun?: boolean;
}

/**
 * Deletes the cached compactions nobody read for `ttlSeconds` (`ollm gc` runs it before the
 * recovery store's retention, so what the remaining ones name stays recoverable). Returns the
 * files deleted (or, with `dryRun`, that would be).
 */
export function expireCompactions(options: ExpireCompactionsOptions): string[] {
  const oldest = (options.now ?? Date.now()) - (options.ttlSeconds ?? FILE_COMPACTION_TTL_SECONDS) * 1000;
  const root = compactionsFolder(options.home);
  const expired: string[] = [];
  for (const folder of listNames(root)) {
    for (const name of listNames(join(root, folder))) {
      const path = join(root, folder, name);
      let modified: number;
      try {
        modified = statSync(path).mtimeMs;
      } catch {
        continue;
      }
      if (!name.endsWith('.json') || modified >= oldest) continue;
      if (!options.dryRun) rmSync(path, { force: true });
      expired.push(path);
    }
  }
  return expired;
}

function listNames(folder: string): string[] {
  try {
    return readdirSync(folder);
  } catch {
    return [];
  }
}
