import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { OllmError } from '../errors/ollm-error.js';

const pause = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(milliseconds: number): void {
  Atomics.wait(pause, 0, 0, milliseconds);
}

function isAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockOwner(path: string): number | undefined {
  try {
    return Number.parseInt(readFileSync(path, 'utf8'), 10);
  } catch {
    return undefined;
  }
}

/**
 * A cross-process lock: a file holding the owner's pid, created atomically with `link`. A lock whose
 * owner died (e.g. SIGKILL) is broken by renaming it aside first, so two processes cannot both
 * break it. Synchronous, because it guards single short appends.
 */
export function withFileLock<T>(path: string, action: () => T, { timeoutMs = 10_000 } = {}): T {
  const deadline = Date.now() + timeoutMs;
  const candidate = `${path}.${process.pid}`;
  let delay = 1;
  for (;;) {
    try {
      // The lock appears with its owner's pid already in it (write aside, then link, which fails if
      // the lock exists), so a writer killed at any moment never leaves an ownerless lock.
      writeFileSync(candidate, String(process.pid));
      linkSync(candidate, path);
      rmSync(candidate, { force: true });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
        rmSync(candidate, { force: true });
        throw error;
      }
      const owner = lockOwner(path);
      if (owner !== undefined && !Number.isNaN(owner) && !isAlive(owner)) breakStaleLock(path, owner);
      else if (Date.now() > deadline) {
        throw new OllmError({ code: 'lock-timeout', message: `Timed out after ${timeoutMs} ms waiting for the lock ${path} (held by pid ${owner}).` });
      } else {
        sleepSync(delay);
        delay = Math.min(delay * 2, 4);
      }
    }
  }
  try {
    return action();
  } finally {
    try {
      unlinkSync(path);
    } catch {
      // Already gone: nothing to release.
    }
  }
}

function breakStaleLock(path: string, deadOwner: number): void {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch {
    return; // Someone else broke it first.
  }
  if (lockOwner(aside) === deadOwner) unlinkSync(aside);
  else {
    // We moved a fresh lock taken between our read and rename: put it back.
    try {
      renameSync(aside, path);
    } catch {
      unlinkSync(aside);
    }
  }
}
