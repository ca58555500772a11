import { OllmError } from '@ollm/core';
import { linkSync, readFileSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

function sleepSync(milliseconds: number): void {
  Atomics.wait(pause, 0, 0, milliseconds);
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Creates the lock file `path` holding `content`, or returns false when it exists. The lock appears
 * with its content already in it (written aside, then `link`ed, which fails if the lock exists), so
 * a writer killed at any moment never leaves an ownerless or half-written lock.
 */
export function createLockFile(path: string, content: string): boolean {
  const candidate = `${path}.${process.pid}`;
  try {
    writeFileSync(candidate, content);
    linkSync(candidate, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(candidate, { force: true });
  }
}

/** The lock's content, or undefined when there is no lock (it was just released). */
export function readLockFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * Removes the lock only if it still holds `content`. It is renamed aside first, so two processes
 * breaking one stale lock cannot both succeed, nor remove a fresh lock taken in between.
 */
export function removeLockIfUnchanged(path: string, content: string): boolean {
  const aside = `${path}.stale-${process.pid}-${Date.now()}`;
  try {
    renameSync(path, aside);
  } catch {
    return false; // Someone else removed it first.
  }
  if (readLockFile(aside) === content) {
    unlinkSync(aside);
    return true;
  }
  // We moved a fresh lock taken between our read and rename: put it back.
  try {
    renameSync(aside, path);
  } catch {
    unlinkSync(aside);
  }
  return false;
}

/**
 * A cross-process lock: a file holding the owner's pid, created atomically with `link`. A lock whose
 * owner died (e.g. SIGKILL) is broken by renaming it aside first, so two processes cannot both
 * break it. Synchronous, because it guards single short appends.
 */
export function withFileLock<T>(path: string, action: () => T, { timeoutMs = 10_000 } = {}): T {
  const deadline = Date.now() + timeoutMs;
  const content = String(process.pid);
  let delay = 1;
  while (!createLockFile(path, content)) {
    const existing = readLockFile(path);
    const owner = existing === undefined ? undefined : Number.parseInt(existing, 10);
    if (existing !== undefined && !Number.isNaN(owner) && !isProcessAlive(owner!)) removeLockIfUnchanged(path, existing);
    else if (Date.now() > deadline) {
      throw new OllmError({ code: 'lock-timeout', message: `Timed out after ${timeoutMs} ms waiting for the lock ${path} (held by pid ${owner}).` });
    } else {
      sleepSync(delay);
      delay = Math.min(delay * 2, 4);
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
