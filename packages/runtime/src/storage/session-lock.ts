import { OllmError } from '@ollm/core';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { SessionInUseError } from '../errors/session-in-use-error.js';
import { createLockFile, isProcessAlive, readLockFile, removeLockIfUnchanged } from './file-lock.js';
import { resolveInside, validateStorageId } from './storage-id.js';

export const SESSION_LOCK_FILE = 'session.lock';

/** Each pass either takes the lock or removes one stale lock; more passes mean others keep racing us. */
const MAX_ATTEMPTS = 10;

export interface SessionLockOptions {
  /** ollm's home (`$OLLM_HOME`); the lock is `<home>/sessions/<sessionId>/session.lock`. */
  readonly home: string;
  readonly sessionId: string;
  /** Take the lock even from a running owner (`--force`). */
  readonly force?: boolean;
}

/** What the lock file holds, one JSON line. */
export interface SessionLockOwner {
  readonly pid: number;
  /** When the owner took the lock (ISO 8601). */
  readonly startTime: string;
}

export interface SessionLock extends SessionLockOwner {
  readonly sessionId: string;
  readonly path: string;
  /** A lock left by a process that is no longer running (or an unreadable lock) was replaced. */
  readonly tookOverStaleLock: boolean;
  /** With `force`: a lock held by a running process was taken from it. */
  readonly tookOverLiveLock: boolean;
  /** The pid named by the lock that was replaced, when there was one and it was readable. */
  readonly previousPid: number | undefined;
  /** Removes the lock if it is still ours; safe to call twice. Also runs on process exit. */
  release(): void;
}

/**
 * One chat per session: takes `<home>/sessions/<id>/session.lock`, created atomically with the
 * owner's pid already in it. A lock whose pid is dead is taken over (`tookOverStaleLock`); one
 * held by a running pid throws `SessionInUseError`, unless `force`. A SIGKILLed owner leaves its
 * lock behind, which is why dead owners are detected rather than trusted to clean up.
 */
export function acquireSessionLock(options: SessionLockOptions): SessionLock {
  const sessionId = validateStorageId('session', options.sessionId);
  const folder = resolveInside(options.home, 'sessions', sessionId);
  mkdirSync(folder, { recursive: true });
  const path = resolveInside(folder, SESSION_LOCK_FILE);
  const owner: SessionLockOwner = { pid: process.pid, startTime: new Date().toISOString() };
  // The token tells our lock from one this same process takes later (e.g. forced over ours), so
  // releasing an old handle never removes a newer lock.
  const content = `${JSON.stringify({ ...owner, token: randomBytes(8).toString('hex') })}\n`;
  let tookOverStaleLock = false;
  let tookOverLiveLock = false;
  let previousPid: number | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    if (createLockFile(path, content)) return heldLock({ sessionId, path, owner, content, tookOverStaleLock, tookOverLiveLock, previousPid });
    const existing = readLockFile(path);
    if (existing === undefined) continue; // Released between our attempt and our read.
    const holder = parseOwner(existing);
    const alive = holder !== undefined && isProcessAlive(holder.pid);
    if (alive && options.force !== true) throw new SessionInUseError({ sessionId, pid: holder.pid });
    if (removeLockIfUnchanged(path, existing)) {
      tookOverStaleLock ||= !alive;
      tookOverLiveLock ||= alive;
      previousPid = holder?.pid;
    }
  }
  throw new OllmError({ code: 'session-lock-contention', message: `Could not take the lock ${path}: other processes kept replacing it.` });
}

function heldLock(fields: {
  sessionId: string;
  path: string;
  owner: SessionLockOwner;
  content: string;
  tookOverStaleLock: boolean;
  tookOverLiveLock: boolean;
  previousPid: number | undefined;
}): SessionLock {
  const { content, owner, ...rest } = fields;
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Only if still ours: a `--force` elsewhere may have replaced it, and that lock is theirs.
    removeLockIfUnchanged(fields.path, content);
  };
  // 'exit' covers normal ends, process.exit and handled signals; a SIGKILL leaves a stale lock.
  process.on('exit', release);
  return { ...rest, ...owner, release };
}

function parseOwner(content: string): SessionLockOwner | undefined {
  try {
    const parsed = JSON.parse(content) as Partial<SessionLockOwner>;
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return undefined;
    return { pid: parsed.pid, startTime: typeof parsed.startTime === 'string' ? parsed.startTime : '' };
  } catch {
    return undefined;
  }
}
