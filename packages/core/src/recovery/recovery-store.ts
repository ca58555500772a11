import { existsSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../digest/source-digest.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { writeFileAtomic } from '../files/write-file-atomic.js';
import { SecretRedactor } from '../secrets/secret-redactor.js';

/** The folder under `logdir` where removed content is stored, one file per sha256. */
export const RECOVERY_FOLDER = 'removed';

/**
 * Beside an entry from which secrets were redacted: `<sha256>.redacted`, holding the sha256 of
 * the text stored. The entry keeps the name of the content the provider removed (what its
 * placeholder names), so it no longer hashes to that name; this marker tells such an entry
 * from a damaged one.
 */
export const REDACTED_MARKER_SUFFIX = '.redacted';

export interface SavedContent {
  readonly sha256: string;
  readonly path: string;
}

/** What a stored entry holds, and whether it is still what was saved. */
export interface RemovedEntry {
  readonly sha256: string;
  readonly path: string;
  readonly content: Buffer;
  /**
   * `intact`: the content hashes to its name, byte for byte what was removed. `redacted`:
   * secrets were replaced by `[redacted]` when it was saved, and it is still that text.
   * `damaged`: changed since it was saved.
   */
  readonly state: 'intact' | 'redacted' | 'damaged';
}

// Stored content: registered secrets go, URLs quoted in the conversation stay as they were.
const redactor = new SecretRedactor([], { urlCredentials: 'keep' });

/**
 * Saves removed content under `<logdir>/removed/<sha256>.txt`, byte for byte, with the secrets
 * of the process (`registerSecret`) and URL credentials replaced by `[redacted]`: the one place
 * every provider's removed content passes through, so no provider has to redact. The name stays
 * the sha256 of the content as removed (placeholders name it before it is saved); an entry that
 * was redacted gets a `<sha256>.redacted` marker holding the sha256 of what is stored. The write
 * goes to a temporary file first and is renamed into place, so a crash never leaves a partial
 * file under the final name. Content already stored (and still intact) is not written again,
 * only touched, so its age says when it was last saved.
 * `knownSha256` is the sha256 of `content` when the caller computed it already (placeholders name
 * the file before it is saved): hashing a large output once is enough.
 */
export function saveRemovedContent(logdir: string, content: string, knownSha256?: string): SavedContent {
  const sha256 = knownSha256 ?? sha256Hex(content);
  const path = join(logdir, RECOVERY_FOLDER, `${sha256}.txt`);
  const stored = redactor.redact(content);
  const marker = `${path.slice(0, -'.txt'.length)}${REDACTED_MARKER_SUFFIX}`;
  if (stored === content) {
    // An entry already there is trusted only when it still hashes to its name: a damaged one (a
    // truncated copy, an edit, an earlier redacted copy) is written again, so what is reported
    // as saved can be recovered.
    if (!existsSync(path) || sha256Hex(readFileSync(path)) !== sha256) {
      writeFileAtomic(path, content);
      rmSync(marker, { force: true });
    } else touch(path);
    return { sha256, path };
  }
  const storedSha256 = sha256Hex(stored);
  // The marker first: a crash between the two writes leaves an entry the next save rewrites.
  if (readIfExists(marker)?.trim() !== storedSha256) writeFileAtomic(marker, `${storedSha256}\n`);
  if (!existsSync(path) || sha256Hex(readFileSync(path)) !== storedSha256) writeFileAtomic(path, stored);
  else touch(path);
  return { sha256, path };
}

/**
 * An entry saved again is as new as a fresh one: the retention policy (`ollm gc`) goes by when
 * an entry was last saved, so content a compaction just named again is not collected as old.
 */
function touch(path: string): void {
  const now = new Date();
  try {
    utimesSync(path, now, now);
  } catch {
    // A read-only store still serves reads; its age is only a hint.
  }
}

/** Reads saved content back by its full sha256 (64 hex digits); redacted text when secrets were redacted from it. */
export function readRemovedContent(logdir: string, sha256: string): string {
  return readFileSync(join(logdir, RECOVERY_FOLDER, `${validSha256(sha256)}.txt`), 'utf8');
}

/**
 * Reads the entry at `path` (`<...>/removed/<sha256>.txt`, named `sha256`) and checks it: intact
 * (hashes to its name), redacted (hashes to what its `.redacted` marker says was stored) or
 * damaged. Throws ENOENT when there is no such entry.
 */
export function readRemovedEntry(path: string, sha256: string): RemovedEntry {
  const name = validSha256(sha256);
  const content = readFileSync(path);
  const actual = sha256Hex(content);
  if (actual === name) return { sha256: name, path, content, state: 'intact' };
  const marker = path.endsWith('.txt') ? readIfExists(`${path.slice(0, -'.txt'.length)}${REDACTED_MARKER_SUFFIX}`) : undefined;
  return { sha256: name, path, content, state: marker?.trim() === actual ? 'redacted' : 'damaged' };
}

function validSha256(sha256: string): string {
  // The name becomes a path: anything but a sha256 (`../../secrets`) must not reach the disk.
  if (!/^[0-9a-f]{64}$/i.test(sha256)) {
    throw new InvalidArgumentError({ argument: 'sha256', message: `"${sha256}" is not a sha256 (64 hexadecimal digits)` });
  }
  return sha256.toLowerCase();
}

function readIfExists(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
