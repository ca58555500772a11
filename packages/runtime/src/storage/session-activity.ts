import { closeSync, existsSync, fstatSync, openSync, readSync, readdirSync } from 'node:fs';
import { HISTORY_FILE } from './session-history.js';
import { resolveInside } from './storage-id.js';

/** A session's history file and when it was last active. */
export interface SessionFile {
  readonly sessionId: string;
  readonly path: string;
  /** As `lastActivityOf` reads it; `''` when the file holds no complete entry. */
  readonly lastActivity: string;
}

/** The first read back from the end is small (a last entry is usually short), then each twice the last. */
const FIRST_CHUNK = 1 << 12;
const LARGEST_CHUNK = 1 << 20;
/** Longer than any `,"at":"<ISO time>"}` an entry ends with. */
const SUFFIX = 96;
/** A session header is a few hundred bytes; a longer line is not read whole. */
const HEADER_LIMIT = 1 << 20;
const COUNTED = ['{"type":"message"', '{"type":"compaction"', '{"type":"compression"'];
const HEADER = '{"type":"session"';
const ENTRY_TIME = /"at":"([^"\\]*)"\}$/;

/**
 * A history file's last activity as `readSessionFile` computes it (the time of its last message
 * or compaction, else its start), read from the end of the file: a few small reads, whatever its
 * size, so a search can order thousands of sessions before reading any of them. Entries are
 * recognised as `SessionHistory` writes them (`type` first, `at` last); a cut last line is skipped.
 */
export function lastActivityOf(path: string): string {
  const descriptor = openSync(path, 'r');
  try {
    const read = (start: number, length: number) => {
      const buffer = Buffer.allocUnsafe(length);
      return buffer.subarray(0, readSync(descriptor, buffer, 0, length, start));
    };
    let end = previousNewline(read, fstatSync(descriptor).size);
    while (end >= 0) {
      const start = previousNewline(read, end) + 1;
      const prefix = read(start, Math.min(end - start, HEADER.length + 8)).toString('utf8');
      if (COUNTED.some((type) => prefix.startsWith(type))) {
        const suffixStart = Math.max(start, end - SUFFIX);
        const time = ENTRY_TIME.exec(read(suffixStart, end - suffixStart).toString('utf8'))?.[1];
        if (time !== undefined) return time;
      } else if (prefix.startsWith(HEADER) && end - start <= HEADER_LIMIT) {
        return headerStart(read(start, end - start).toString('utf8'));
      }
      end = start - 1;
    }
    return '';
  } finally {
    closeSync(descriptor);
  }
}

/** The position of the last newline before `before`, or -1. */
function previousNewline(read: (start: number, length: number) => Buffer, before: number): number {
  for (let end = before, chunk = FIRST_CHUNK; end > 0; end -= chunk, chunk = Math.min(chunk * 2, LARGEST_CHUNK)) {
    const start = Math.max(0, end - chunk);
    const newline = read(start, end - start).lastIndexOf(0x0a);
    if (newline >= 0) return start + newline;
  }
  return -1;
}

function headerStart(line: string): string {
  try {
    const header = JSON.parse(line) as { startTime?: unknown };
    return typeof header.startTime === 'string' ? header.startTime : '';
  } catch {
    return '';
  }
}

/**
 * Every session folder under `home` holding a history file, newest activity first (as `ollm
 * sessions list` orders them; ties by id, newest-looking first), without reading the files whole.
 */
export function sessionFilesByActivity(home: string): SessionFile[] {
  const folder = resolveInside(home, 'sessions');
  if (!existsSync(folder)) return [];
  const files: SessionFile[] = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = resolveInside(folder, entry.name, HISTORY_FILE);
    const lastActivity = activityIfThere(path);
    if (lastActivity !== undefined) files.push({ sessionId: entry.name, path, lastActivity });
  }
  return files.sort((a, b) => b.lastActivity.localeCompare(a.lastActivity) || b.sessionId.localeCompare(a.sessionId));
}

/** `lastActivityOf`, or undefined for a folder without a history file (or one deleted meanwhile). */
function activityIfThere(path: string): string | undefined {
  try {
    return lastActivityOf(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
