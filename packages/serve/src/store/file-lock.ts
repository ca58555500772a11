import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';

/** What a lock file holds: who took it, until when, and a token no other taker has. */
interface LockHolder {
  readonly pid: number;
  readonly hostname: string;
  readonly token: string;
  /** Milliseconds since the epoch. */
  readonly expiresAt: number;
}

/** Creating, then finding it stale and taking it over, may race with another taker: a bounded number of rounds. */
const ROUNDS = 3;

/**
 * Takes the lock file at `path` for `ttlMs`, or resolves undefined when a live holder has it. The
 * file is written in full under a temporary name and hard-linked into place (`link` fails with
 * EEXIST when the lock exists, exclusive as `open(path, 'wx')`), so a reader never sees a lock
 * without its holder. A lock whose expiry passed, whose holder's process has died (same host
 * only: a pid means nothing on another machine sharing the folder) or that cannot be read is
 * stale and taken over. The release function removes the file only while it is still this
 * taker's; it never rejects (a lock it cannot remove expires).
 */
export function tryLockFile(path: string, ttlMs: number): (() => Promise<void>) | undefined {
  mkdirSync(dirname(path), { recursive: true });
  const holder: LockHolder = { pid: process.pid, hostname: hostname(), token: randomBytes(16).toString('hex'), expiresAt: Date.now() + ttlMs };
  const text = `${JSON.stringify(holder)}\n`;
  for (let round = 0; round < ROUNDS; round += 1) {
    if (createExclusive(path, text)) return releaser(path, text);
    const current = readText(path);
    // Released between the two calls: try again.
    if (current === undefined) continue;
    if (isLive(current)) return undefined;
    // Stale: moved aside only if it is still the file judged stale (another taker may have replaced it).
    if (removeIfUnchanged(path, current) === 'changed') return undefined;
  }
  return undefined;
}

function releaser(path: string, text: string): () => Promise<void> {
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    try {
      // A lock that expired and was taken over is the new holder's: leave it.
      if (readText(path) === text) removeIfUnchanged(path, text);
    } catch {
      // Cannot remove it (permissions, a vanished folder): it expires.
    }
  };
}

function createExclusive(path: string, text: string): boolean {
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(temporary, text, { flag: 'wx' });
  try {
    linkSync(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(temporary, { force: true });
  }
}

/**
 * Removes the lock at `path` if it still holds `expected`. The file is first renamed to a name of
 * this call's own (only one of several racing callers gets it), then checked: a file that changed
 * in between (another taker's fresh lock) is linked back into place.
 */
function removeIfUnchanged(path: string, expected: string): 'removed' | 'changed' | 'gone' {
  const aside = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.stale`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    throw error;
  }
  try {
    if (readText(aside) === expected) return 'removed';
    try {
      linkSync(aside, path);
    } catch {
      // A third taker created a lock meanwhile: theirs stands.
    }
    return 'changed';
  } finally {
    rmSync(aside, { force: true });
  }
}

function isLive(text: string): boolean {
  const holder = parseHolder(text);
  if (holder === undefined || holder.expiresAt <= Date.now()) return false;
  return holder.hostname !== hostname() || processIsAlive(holder.pid);
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockHolder> | null;
    if (typeof value !== 'object' || value === null) return undefined;
    const { pid, hostname: host, token, expiresAt } = value;
    if (!Number.isInteger(pid) || pid! <= 0 || typeof host !== 'string' || typeof token !== 'string' || typeof expiresAt !== 'number') return undefined;
    return { pid: pid!, hostname: host, token, expiresAt };
  } catch {
    return undefined;
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, owned by someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
