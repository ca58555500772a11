import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../digest/source-digest.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { writeFileAtomic } from '../files/write-file-atomic.js';

/** The folder under `logdir` where removed content is stored, one file per sha256. */
export const RECOVERY_FOLDER = 'removed';

export interface SavedContent {
  readonly sha256: string;
  readonly path: string;
}

/**
 * Saves removed content under `<logdir>/removed/<sha256>.txt`, byte for byte. The write goes to a
 * temporary file first and is renamed into place, so a crash never leaves a partial file under the
 * final name. Content already stored (same sha256, and the stored file still hashing to it) is not
 * written again.
 * `knownSha256` is the sha256 of `content` when the caller computed it already (placeholders name
 * the file before it is saved): hashing a large output once is enough.
 */
export function saveRemovedContent(logdir: string, content: string, knownSha256?: string): SavedContent {
  const sha256 = knownSha256 ?? sha256Hex(content);
  const path = join(logdir, RECOVERY_FOLDER, `${sha256}.txt`);
  // An entry already there is trusted only when it still hashes to its name: a damaged one (a
  // truncated copy, an edit) is written again, so what is reported as saved can be recovered.
  if (!existsSync(path) || sha256Hex(readFileSync(path, 'utf8')) !== sha256) writeFileAtomic(path, content);
  return { sha256, path };
}

/** Reads saved content back by its full sha256 (64 hex digits). */
export function readRemovedContent(logdir: string, sha256: string): string {
  // The name becomes a path: anything but a sha256 (`../../secrets`) must not reach the disk.
  if (!/^[0-9a-f]{64}$/i.test(sha256)) {
    throw new InvalidArgumentError({ argument: 'sha256', message: `"${sha256}" is not a sha256 (64 hexadecimal digits)` });
  }
  return readFileSync(join(logdir, RECOVERY_FOLDER, `${sha256.toLowerCase()}.txt`), 'utf8');
}
