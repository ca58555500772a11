import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive, readLockFile, removeLockIfUnchanged } from './file-lock.js';

/** A temporary or lock file is stale once its process is gone and it is older than this. */
export const STALE_FILE_AGE_MS = 60_000;

/** A file a writer killed mid-write (SIGKILL, power loss) left behind. */
export interface StaleFile {
  readonly path: string;
  /** The process that made it, which is no longer running. */
  readonly pid: number;
  readonly kind: 'temporary' | 'lock';
  readonly bytes: number;
}

export interface StaleFileOptions {
  /** ollm's home: its top folder, `sessions/*`, `snapshots/*` and `removed/` are looked at. */
  readonly home: string;
  /** Other logdirs (`--logdir`): their top folder and `removed/`. */
  readonly logdirs?: readonly string[];
  /** Default: now. */
  readonly now?: Date;
  /** Whether a pid runs; tests inject one. Default: `process.kill(pid, 0)`. */
  readonly isAlive?: (pid: number) => boolean;
}

/** `<name>.<pid>.<random hex>.tmp`: core's `writeFileAtomic` (`<name>.<pid>.<milliseconds>.tmp` before). */
const TEMPORARY = /\.(\d+)\.[0-9a-f]+\.tmp$/;
/** `<lock>.<pid>`: a lock written aside before it is linked (`createLockFile`). */
const LOCK_CANDIDATE = /\.lock\.(\d+)$/;
/** `<lock>.stale-<pid>-<milliseconds>`: a stale lock renamed aside to be broken. */
const LOCK_ASIDE = /\.lock\.stale-(\d+)-\d+$/;

/**
 * The temporary and lock files left by processes that no longer run, older than a minute:
 * atomic writes' temporaries (their pid is in their name), lock files (their pid is their
 * content: a bare pid, or `{"pid": ...}`), and the asides of lock creation and breaking. Only the
 * folders ollm writes are looked at, not the whole tree.
 */
export function findStaleFiles(options: StaleFileOptions): StaleFile[] {
  const now = (options.now ?? new Date()).getTime();
  const isAlive = options.isAlive ?? isProcessAlive;
  const found: StaleFile[] = [];
  for (const folder of foldersOf(options)) {
    for (const name of listFiles(folder)) {
      const path = join(folder, name);
      const pid = ownerOf(path, name);
      if (pid === undefined) continue;
      const stats = statIfExists(path);
      if (stats === undefined || now - stats.mtimeMs < STALE_FILE_AGE_MS || isAlive(pid)) continue;
      found.push({ path, pid, kind: TEMPORARY.test(name) ? 'temporary' : 'lock', bytes: stats.size });
    }
  }
  return found;
}

/** Removes what `findStaleFiles` finds; returns what was removed. A lock is removed only if unchanged meanwhile. */
export function removeStaleFiles(options: StaleFileOptions): StaleFile[] {
  const removed: StaleFile[] = [];
  for (const file of findStaleFiles(options)) {
    if (file.path.endsWith('.lock')) {
      const content = readLockFile(file.path);
      if (content === undefined || !removeLockIfUnchanged(file.path, content)) continue;
    } else rmSync(file.path, { force: true });
    removed.push(file);
  }
  return removed;
}

function foldersOf(options: StaleFileOptions): string[] {
  const folders = [options.home, join(options.home, 'removed')];
  for (const parent of ['sessions', 'snapshots']) {
    for (const name of listFolders(join(options.home, parent))) folders.push(join(options.home, parent, name));
  }
  for (const logdir of options.logdirs ?? []) folders.push(logdir, join(logdir, 'removed'));
  return [...new Set(folders)];
}

/** The pid that owns a temporary or lock file, or undefined when `name` is neither. */
function ownerOf(path: string, name: string): number | undefined {
  const named = TEMPORARY.exec(name) ?? LOCK_CANDIDATE.exec(name) ?? LOCK_ASIDE.exec(name);
  if (named) return Number(named[1]);
  if (!name.endsWith('.lock')) return undefined;
  const content = readLockFile(path)?.trim();
  if (content === undefined) return undefined;
  if (/^\d+$/.test(content)) return Number(content);
  try {
    const pid = (JSON.parse(content) as { pid?: unknown }).pid;
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function listFiles(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

function listFolders(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

function statIfExists(path: string): { mtimeMs: number; size: number } | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
