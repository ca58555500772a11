import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { temporaryFolders } from '../test-support/temporary-folders.js';
import { findStaleFiles, removeStaleFiles, STALE_FILE_AGE_MS } from './stale-files.js';

const here = dirname(fileURLToPath(import.meta.url));
const builtRuntime = join(here, '..', '..', 'dist', 'index.js');
const newHome = temporaryFolders('stale');

/** A pid that ran and has ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

function write(path: string, content: string, ageMs: number): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  const time = new Date(Date.now() - ageMs);
  utimesSync(path, time, time);
  return path;
}

const old = 2 * STALE_FILE_AGE_MS;

describe('stale temporary and lock files', () => {
  it('removes the temporaries and locks of dead processes older than a minute, and nothing else', () => {
    const home = newHome();
    const dead = deadPid();
    const session = join(home, 'sessions', 's1');
    const stale = [
      write(join(session, 'history.jsonl.lock'), String(dead), old),
      write(join(session, 'session.lock'), `${JSON.stringify({ pid: dead, startTime: 'x', token: 'y' })}\n`, old),
      write(join(session, `context.json.${dead}.1700000000000.tmp`), '{', old),
      write(join(session, `session.lock.${dead}`), '{}', old),
      write(join(session, `history.jsonl.lock.stale-${dead}-1700000000000`), String(dead), old),
      write(join(home, 'snapshots', 's1', `20260101-000-abc.json.${dead}.1.tmp`), '{', old),
      write(join(home, 'removed', `${'a'.repeat(64)}.txt.${dead}.2.tmp`), 'part', old),
    ];
    const kept = [
      write(join(home, 'sessions', 's2', 'history.jsonl.lock'), String(process.pid), old),
      write(join(home, 'sessions', 's2', `context.json.${process.pid}.3.tmp`), '{', old),
      write(join(home, 'sessions', 's3', `context.json.${dead}.4.tmp`), '{', 1000),
      write(join(session, 'history.jsonl'), '{}\n', old),
      write(join(session, 'notes.tmp'), 'mine', old),
      write(join(home, 'removed', `${'b'.repeat(64)}.txt`), 'entry', old),
    ];
    expect(
      findStaleFiles({ home })
        .map((file) => file.path)
        .sort(),
    ).toEqual([...stale].sort());
    const removed = removeStaleFiles({ home });
    expect(removed.every((file) => file.pid === dead)).toBe(true);
    expect(removed.filter((file) => file.kind === 'lock')).toHaveLength(4);
    for (const path of stale) expect(existsSync(path), path).toBe(false);
    for (const path of kept) expect(existsSync(path), path).toBe(true);
    expect(readdirSync(session).some((name) => name.includes('.stale-'))).toBe(false);
  });

  it('looks in other logdirs too', () => {
    const home = newHome();
    const logdir = newHome();
    const dead = deadPid();
    const path = write(join(logdir, `RESUME-x.md.${dead}.5.tmp`), '#', old);
    expect(removeStaleFiles({ home, logdirs: [logdir] }).map((file) => file.path)).toEqual([path]);
  });
});

describe.skipIf(!existsSync(builtRuntime))('a writer killed by SIGKILL (uses the built runtime: run `pnpm build` first)', () => {
  it('leaves a lock and a temporary that are cleaned once it is gone a minute', async () => {
    const home = newHome();
    const child = spawn(process.execPath, [join(here, 'test-support', 'killed-writer.mjs'), home], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const folder = join(home, 'sessions', 'killed');
    const left = readdirSync(folder).sort();
    expect(left).toHaveLength(2);
    expect(left[0]).toMatch(new RegExp(`^context\\.json\\.${child.pid}\\.[0-9a-f]+\\.tmp$`));
    expect(left[1]).toBe('history.jsonl.lock');
    // Just killed: within the minute a slow writer could still be finishing, so nothing goes yet.
    expect(findStaleFiles({ home })).toEqual([]);
    const later = new Date(Date.now() + old);
    expect(
      removeStaleFiles({ home, now: later })
        .map((file) => file.kind)
        .sort(),
    ).toEqual(['lock', 'temporary']);
    expect(readdirSync(folder)).toEqual([]);
  });
});
