import { readFileSync, realpathSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { readRemovedEntry, sha256Hex, type CompactionResult, type Message } from '@ollm/core';
import type { ConformanceFailure } from '../conformance-failure.js';

function isInside(folder: string, path: string): boolean {
  const fromFolder = relative(folder, path);
  return fromFolder !== '' && !fromFolder.startsWith('..') && !isAbsolute(fromFolder);
}

/**
 * Each `removed` entry names an input message, and one that names a file must point under `logdir` (relative paths are read
 * against it), and the file's bytes must hash to the entry's sha256 (or, when the recovery store
 * redacted secrets from it, to what its `.redacted` marker says was stored): otherwise the
 * "recoverable" content is lost or wrong.
 */
export function findRemovedFileFailures(input: readonly Message[], result: CompactionResult, logdir: string | undefined): ConformanceFailure[] {
  const failures: ConformanceFailure[] = [];
  const inputIds = new Set(input.map((message) => message.id));
  for (const [index, entry] of result.removed.entries()) {
    // A recovery reference must say where the content came from, or it cannot be put back.
    if (!inputIds.has(entry.messageId)) {
      failures.push({ check: 'removed-files', detail: `removed[${index}] messageId ${JSON.stringify(entry.messageId)} is not an input message` });
    }
    if (typeof entry.sha256 !== 'string' || !/^[0-9a-f]{64}$/.test(entry.sha256)) {
      failures.push({ check: 'removed-files', detail: `removed[${index}] sha256 ${JSON.stringify(entry.sha256)} is not 64 lowercase hex digits` });
      continue;
    }
    if (entry.path === undefined) continue;
    if (logdir === undefined) {
      failures.push({ check: 'removed-files', detail: `removed[${index}] names ${entry.path} but no logdir was given` });
      continue;
    }
    const path = resolve(logdir, entry.path);
    let bytes: Buffer;
    let realPath: string;
    try {
      bytes = readFileSync(path);
      realPath = realpathSync(path);
    } catch (error) {
      failures.push({ check: 'removed-files', detail: `removed[${index}] path ${entry.path} cannot be read: ${(error as Error).message}` });
      continue;
    }
    // Compare real paths: the temp folder itself may sit behind a symlink (macOS /var).
    if (!isInside(realpathSync(logdir), realPath)) {
      failures.push({ check: 'removed-files', detail: `removed[${index}] path ${entry.path} is outside logdir ${logdir}` });
      continue;
    }
    const actual = sha256Hex(bytes);
    // An entry the store redacted secrets from matches the `.redacted` marker beside it instead.
    if (actual !== entry.sha256 && readRemovedEntry(path, entry.sha256).state !== 'redacted') {
      failures.push({ check: 'removed-files', detail: `removed[${index}] file ${entry.path} has sha256 ${actual}, the entry says ${entry.sha256}` });
    }
  }
  return failures;
}
