import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Simulates a failure between writing the temporary file and renaming it into place.
const failRename = vi.hoisted(() => ({ enabled: false }));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  return {
    ...actual,
    renameSync: (from: string, to: string) => {
      if (failRename.enabled) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      actual.renameSync(from, to);
    },
  };
});

const { RECOVERY_FOLDER, saveRemovedContent } = await import('./recovery-store.js');

describe('saveRemovedContent when the write fails', () => {
  const logdir = mkdtempSync(join(tmpdir(), 'ollm-recovery-failure-'));
  afterEach(() => {
    failRename.enabled = false;
  });

  it('throws, and leaves neither a partial file under the final name nor a temporary', () => {
    failRename.enabled = true;
    expect(() => saveRemovedContent(logdir, 'content that never lands')).toThrow(/ENOSPC/);
    const folder = join(logdir, RECOVERY_FOLDER);
    expect(existsSync(folder) ? readdirSync(folder) : []).toEqual([]);

    failRename.enabled = false;
    const saved = saveRemovedContent(logdir, 'content that never lands');
    expect(readdirSync(folder)).toEqual([`${saved.sha256}.txt`]);
    rmSync(logdir, { recursive: true, force: true });
  });
});
