import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `work` with a new empty folder under the OS temp dir, and removes the folder afterwards. */
export async function withTemporaryLogdir<T>(work: (logdir: string) => Promise<T>): Promise<T> {
  const logdir = mkdtempSync(join(tmpdir(), 'ollm-conformance-'));
  try {
    return await work(logdir);
  } finally {
    rmSync(logdir, { recursive: true, force: true });
  }
}
