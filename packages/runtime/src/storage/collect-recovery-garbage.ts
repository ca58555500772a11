import { REDACTED_MARKER_SUFFIX, RECOVERY_FOLDER } from '@ollm/core';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { RecoveryReferences } from './recovery-references.js';

/** Entries younger than this are never deleted: a compaction running now may not have saved the context naming them yet. */
export const RECENT_ENTRY_GRACE_MS = 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;
const MEGABYTE = 1024 * 1024;
const ENTRY = /^([0-9a-f]{64})\.txt$/;
const MARKER = new RegExp(`^([0-9a-f]{64})${REDACTED_MARKER_SUFFIX.replace('.', '\\.')}$`);

export interface RecoveryRetention {
  /** Unreferenced entries older than this many days are deleted. */
  readonly maxAgeDays: number;
  /** While the store holds more than this, the oldest unreferenced entries are deleted. */
  readonly maxTotalMB: number;
}

export interface CollectRecoveryGarbageOptions extends RecoveryRetention {
  /** ollm's home: its sessions and snapshots say what is still referenced. */
  readonly home: string;
  /** The logdir whose `removed/` is collected; default the home. */
  readonly logdir?: string;
  /** Report what would be deleted, delete nothing. */
  readonly dryRun?: boolean;
  /** Only when the store is past a limit (how the chat collects at start); else nothing is read beyond the folder listing. */
  readonly onlyWhenDue?: boolean;
  /** Default: now. */
  readonly now?: Date;
}

export interface RecoveryEntryInfo {
  readonly sha256: string;
  readonly path: string;
  /** The entry and its `.redacted` marker, if any. */
  readonly bytes: number;
  /** When it was last saved (a save of content already stored touches it). */
  readonly savedAt: Date;
}

export interface DeletedRecoveryEntry extends RecoveryEntryInfo {
  /** `age`: older than maxAgeDays; `size`: the store was over maxTotalMB. */
  readonly reason: 'age' | 'size';
}

export interface RecoveryGarbageReport {
  /** The `removed/` folder collected. */
  readonly folder: string;
  readonly dryRun: boolean;
  /** False when `onlyWhenDue` found the store within its limits and read nothing more. */
  readonly collected: boolean;
  /** Entries and bytes before collecting. */
  readonly entries: number;
  readonly bytes: number;
  /** Deleted (with `dryRun`: would be), oldest first. */
  readonly deleted: readonly DeletedRecoveryEntry[];
  readonly deletedBytes: number;
  /** Entries kept because a session's saved context or a snapshot names them. */
  readonly referenced: number;
  /** Entries kept because they are younger than the grace period (`RECENT_ENTRY_GRACE_MS`). */
  readonly recent: number;
  /** `.redacted` markers whose entry is gone, removed too. */
  readonly orphanMarkers: number;
  /** The store is still over maxTotalMB: everything left is referenced or recent. */
  readonly stillOverLimit: boolean;
}

/**
 * The recovery store's retention policy (`ollm gc`): an entry is deleted when nothing references
 * it (no session's saved context, no snapshot: `RecoveryReferences`), it was saved more than an
 * hour ago, and either it is older than `maxAgeDays` or the store is over `maxTotalMB` (then the
 * oldest go first, until it is not). Referenced entries are never deleted, whatever their age
 * or the store's size. With `dryRun` the report says what would go and nothing is deleted.
 */
export function collectRecoveryGarbage(options: CollectRecoveryGarbageOptions): RecoveryGarbageReport {
  const now = (options.now ?? new Date()).getTime();
  const folder = join(options.logdir ?? options.home, RECOVERY_FOLDER);
  const dryRun = options.dryRun === true;
  const { entries, orphanMarkers } = listEntries(folder);
  const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0);
  const maxBytes = options.maxTotalMB * MEGABYTE;
  const maxAgeMs = options.maxAgeDays * DAY_MS;
  const base = { folder, dryRun, entries: entries.length, bytes, orphanMarkers: 0 };
  const due = bytes > maxBytes || entries.some((entry) => now - entry.savedAt.getTime() > maxAgeMs) || orphanMarkers.length > 0;
  if (options.onlyWhenDue === true && !due) {
    return { ...base, collected: false, deleted: [], deletedBytes: 0, referenced: 0, recent: 0, stillOverLimit: false };
  }

  const references = RecoveryReferences.collect(options.home);
  let referenced = 0;
  let recent = 0;
  const candidates: RecoveryEntryInfo[] = [];
  for (const entry of entries) {
    if (references.references(entry.sha256)) referenced += 1;
    else if (now - entry.savedAt.getTime() < RECENT_ENTRY_GRACE_MS) recent += 1;
    else candidates.push(entry);
  }
  candidates.sort((a, b) => a.savedAt.getTime() - b.savedAt.getTime());
  const deleted: DeletedRecoveryEntry[] = [];
  let left = bytes;
  for (const entry of candidates) {
    const reason = now - entry.savedAt.getTime() > maxAgeMs ? 'age' : left > maxBytes ? 'size' : undefined;
    if (reason === undefined) continue;
    if (!dryRun && !deleteEntry(entry)) continue;
    deleted.push({ ...entry, reason });
    left -= entry.bytes;
  }
  if (!dryRun) for (const marker of orphanMarkers) rmSync(marker, { force: true });
  return {
    ...base,
    collected: true,
    deleted,
    deletedBytes: bytes - left,
    referenced,
    recent,
    orphanMarkers: orphanMarkers.length,
    stillOverLimit: left > maxBytes,
  };
}

/**
 * Deletes an entry and its marker, unless it was saved again since it was listed (a save of
 * content already stored touches it): that save is about to be referenced.
 */
function deleteEntry(entry: RecoveryEntryInfo): boolean {
  try {
    if (Math.trunc(statSync(entry.path).mtimeMs) !== entry.savedAt.getTime()) return false;
  } catch {
    return false; // Already gone.
  }
  rmSync(entry.path, { force: true });
  rmSync(`${entry.path.slice(0, -'.txt'.length)}${REDACTED_MARKER_SUFFIX}`, { force: true });
  return true;
}

function listEntries(folder: string): { entries: RecoveryEntryInfo[]; orphanMarkers: string[] } {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return { entries: [], orphanMarkers: [] };
  }
  const markers = new Map<string, number>();
  for (const name of names) {
    const marker = MARKER.exec(name);
    if (marker) markers.set(marker[1]!, sizeOf(join(folder, name)) ?? 0);
  }
  const entries: RecoveryEntryInfo[] = [];
  for (const name of names) {
    const match = ENTRY.exec(name);
    if (!match) continue;
    const path = join(folder, name);
    let stats;
    try {
      stats = statSync(path);
    } catch {
      continue;
    }
    if (!stats.isFile()) continue;
    const sha256 = match[1]!;
    entries.push({ sha256, path, bytes: stats.size + (markers.get(sha256) ?? 0), savedAt: new Date(stats.mtimeMs) });
    markers.delete(sha256);
  }
  return { entries, orphanMarkers: [...markers.keys()].map((sha256) => join(folder, `${sha256}${REDACTED_MARKER_SUFFIX}`)) };
}

function sizeOf(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}
