import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { saveRemovedContent, type SavedContent } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { binaryBuilt, runBinary } from './chat-driver.js';
import { runOllm, temporaryFolder } from './run-ollm.js';

const DAY = 24 * 60 * 60 * 1000;

describe('ollm gc', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let home: string;
  let env: Record<string, string>;
  beforeEach(() => {
    folder = temporaryFolder();
    home = join(folder.path, 'home');
    env = { OLLM_HOME: home, HOME: folder.path };
  });
  afterEach(() => folder.remove());

  const gc = (...args: string[]) => runOllm(['gc', ...args], { cwd: folder.path, env });

  function saved(content: string, daysAgo: number, logdir = home): SavedContent {
    const entry = saveRemovedContent(logdir, content);
    const time = new Date(Date.now() - daysAgo * DAY);
    utimesSync(entry.path, time, time);
    return entry;
  }

  function referenceFromSession(entry: SavedContent): void {
    mkdirSync(join(home, 'sessions', 's1'), { recursive: true });
    writeFileSync(
      join(home, 'sessions', 's1', 'context.json'),
      JSON.stringify({ version: 1, context: { messages: [{ parts: [{ type: 'text', text: `full output: ollm recover ${entry.sha256.slice(0, 12)}` }] }] } }),
    );
  }

  it('--dry-run says what would go, with counts and bytes, and deletes nothing', async () => {
    const aged = saved('aged content', 40);
    const referenced = saved('aged but referenced', 40);
    referenceFromSession(referenced);
    const run = await gc('--dry-run');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      [
        `would delete 1 of 2 entries (12 B of 31 B) from ${join(home, 'removed')}: 1 older than 30 days`,
        "kept 1: 1 named by a session's saved context, a snapshot or a compaction ollm serve keeps",
        '',
      ].join('\n'),
    );
    expect(existsSync(aged.path) && existsSync(referenced.path)).toBe(true);
  });

  it("keeps what ollm serve's cached compactions name, until a compaction nobody read for 7 days expires", async () => {
    const named = saved('removed by the proxy', 40);
    const compaction = join(home, 'serve', 'compactions', 'ab', `${'ab'.repeat(32)}.json`);
    mkdirSync(join(home, 'serve', 'compactions', 'ab'), { recursive: true });
    writeFileSync(compaction, JSON.stringify({ coveredMessages: 3, messages: [{ role: 'tool', content: `[ollm fold ${named.sha256.slice(0, 12)}]` }] }));
    const kept = await gc();
    expect(kept.code, kept.stderr).toBe(0);
    expect(existsSync(named.path) && existsSync(compaction)).toBe(true);
    // Nobody read the compaction for 8 days: it goes, and then what it alone named.
    const stale = new Date(Date.now() - 8 * DAY);
    utimesSync(compaction, stale, stale);
    const dry = await gc('--dry-run');
    expect(dry.stdout).toContain('would delete 1 compaction ollm serve kept that nobody read for 7 days');
    expect(existsSync(compaction)).toBe(true);
    const run = await gc();
    expect(run.stdout).toContain('deleted 1 compaction ollm serve kept that nobody read for 7 days');
    expect(existsSync(compaction) || existsSync(named.path)).toBe(false);
  });

  it('deletes aged unreferenced entries and keeps referenced ones; a second run finds nothing', async () => {
    const aged = saved('aged content', 40);
    const referenced = saved('aged but referenced', 40);
    const young = saved('young', 1);
    referenceFromSession(referenced);
    const run = await gc();
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^deleted 1 of 3 entries \(12 B of 36 B\) from .*: 1 older than 30 days$/m);
    expect(existsSync(aged.path)).toBe(false);
    expect(existsSync(referenced.path) && existsSync(young.path)).toBe(true);
    expect((await gc()).stdout).toMatch(/^nothing to delete in .*: 2 entries \(24 B\)$/m);
  });

  it('evicts the oldest unreferenced entries first over --max-total-mb, and prints a JSON report', async () => {
    const megabyte = 'x'.repeat(1024 * 1024 - 10);
    const oldest = saved(`${megabyte}1`, 9);
    const middle = saved(`${megabyte}2`, 8);
    const newest = saved(`${megabyte}3`, 7);
    const run = await gc('--max-total-mb', '2', '--json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as { deleted: { sha256: string; reason: string }[]; recovery: { maxTotalMB: number }; stillOverLimit: boolean };
    expect(report.deleted.map((entry) => [entry.sha256, entry.reason])).toEqual([[oldest.sha256, 'size']]);
    expect(report.recovery.maxTotalMB).toBe(2);
    expect(report.stillOverLimit).toBe(false);
    expect(existsSync(middle.path) && existsSync(newest.path)).toBe(true);
  });

  it('reads recovery.maxAgeDays from the config, and collects another --logdir', async () => {
    writeFileSync(join(folder.path, '.ollmrc.json'), JSON.stringify({ recovery: { maxAgeDays: 5 } }));
    const logdir = join(folder.path, 'logs');
    const aged = saved('six days old', 6, logdir);
    const run = await gc('--logdir', logdir);
    expect(run.stdout).toMatch(/^deleted 1 of 1 entry \(12 B of 12 B\) from .*logs\/removed: 1 older than 5 days$/m);
    expect(existsSync(aged.path)).toBe(false);
  });

  it('removes the temporary and lock files of ended processes (not with --dry-run)', async () => {
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const session = join(home, 'sessions', 's1');
    mkdirSync(session, { recursive: true });
    const lock = join(session, 'history.jsonl.lock');
    const temporary = join(session, `context.json.${dead}.1700000000000.tmp`);
    writeFileSync(lock, String(dead));
    writeFileSync(temporary, '{"half');
    const old = new Date(Date.now() - 10 * 60 * 1000);
    for (const path of [lock, temporary]) utimesSync(path, old, old);
    expect((await gc('--dry-run')).stdout).toMatch(/^would remove 2 stale temporary or lock files \(\d+ B\) left by ended processes$/m);
    expect(readdirSync(session)).toHaveLength(2);
    expect((await gc()).stdout).toMatch(/^removed 2 stale temporary or lock files \(\d+ B\) left by ended processes$/m);
    expect(readdirSync(session)).toEqual([]);
  });

  it.each([
    ['--max-age-days', '0'],
    ['--max-total-mb', 'lots'],
  ])('exits 2 for %s %s', async (flag, value) => {
    const run = await gc(flag, value);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(new RegExp(`^ollm: Invalid ${flag} "${value}": use a number above 0\\.\\n$`));
  });

  it('explains the policy in --help', async () => {
    const run = await runOllm(['gc', '--help'], { cwd: folder.path, env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--dry-run');
    expect(run.stdout).toContain('never deleted');
    expect(run.stdout).toContain('recovery.maxAgeDays');
  });
});

describe.skipIf(!binaryBuilt)('the chat at start (the built binary)', () => {
  let server: FakeModelServer;
  beforeAll(async () => {
    server = await startFakeModelServer();
  });
  afterAll(async () => {
    await server.close();
  });

  it('collects the store past a limit and removes stale files, saying so in one line; recovery.autoCollect false leaves the store', async () => {
    const folder = temporaryFolder();
    try {
      const home = join(folder.path, 'home');
      const env = { OLLM_HOME: home, HOME: folder.path };
      const aged = saveRemovedContent(home, 'aged, unreferenced');
      const old = new Date(Date.now() - 40 * DAY);
      utimesSync(aged.path, old, old);
      const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
      const temporary = join(home, 'removed', `${'f'.repeat(64)}.txt.${dead}.1700000000000.tmp`);
      writeFileSync(temporary, 'half');
      utimesSync(temporary, old, old);

      writeFileSync(join(folder.path, '.ollmrc.json'), JSON.stringify({ recovery: { autoCollect: false } }));
      const kept = await runBinary(['--host', server.url, '--model', 'fake-llama:8b'], env, folder.path, '/quit\n');
      expect(kept.code, kept.stderr).toBe(0);
      expect(kept.stdout).toMatch(/^removed 1 stale temporary or lock file left by ended processes; see ollm gc --help$/m);
      expect(existsSync(aged.path)).toBe(true);

      writeFileSync(join(folder.path, '.ollmrc.json'), '{}');
      const run = await runBinary(['--host', server.url, '--model', 'fake-llama:8b'], env, folder.path, '/quit\n');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        /^deleted 1 entry \(18 B\) no session or snapshot references from the recovery store \(recovery\.maxAgeDays 30, recovery\.maxTotalMB 500\); see ollm gc --help$/m,
      );
      expect(existsSync(aged.path)).toBe(false);
    } finally {
      folder.remove();
    }
  });
});
