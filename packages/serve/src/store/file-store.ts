import { readdirSync, rmSync, utimesSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
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
}

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
export function createFileStore({ home }: FileStoreOptions): SearchableProxyStore {
  const compactionPath = (key: string): string => join(home, SERVE_FOLDER, 'compactions', key.slice(0, 2), `${key}.json`);
  const removedFolder = join(home, RECOVERY_FOLDER);
  const removedPath = (sha256: string): string => join(removedFolder, `${sha256}.txt`);

  return {
    kind: 'files',

    async getCompactions(keys: readonly string[]): Promise<(CachedCompaction | undefined)[]> {
      const paths = keys.map((key) => compactionPath(checkStoreKey('key', key)));
      return Promise.all(paths.map(async (path) => parseCachedCompaction(await readFile(path, 'utf8').catch(() => undefined))));
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
        touch(path);
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

function touch(path: string): void {
  const now = new Date();
  try {
    utimesSync(path, now, now);
  } catch {
    // A read-only store still serves reads; its age is only a hint.
  }
}
