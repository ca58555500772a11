import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * Makes new folders under the system's temporary folder (`ollm-<name>-…`), each removed after the
 * test that made it. Call it at the top of a test file.
 */
export function temporaryFolders(name: string): () => string {
  const made: string[] = [];
  afterEach(() => {
    for (const folder of made.splice(0)) rmSync(folder, { recursive: true, force: true });
  });
  return () => {
    const folder = mkdtempSync(join(tmpdir(), `ollm-${name}-`));
    made.push(folder);
    return folder;
  };
}
