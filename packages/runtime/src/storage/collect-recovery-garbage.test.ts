import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { forgetRegisteredSecrets, registerSecret, saveRemovedContent, type SavedContent } from '@ollm/core';
import { afterEach, describe, expect, it } from 'vitest';
import { temporaryFolders } from '../test-support/temporary-folders.js';
import { collectRecoveryGarbage } from './collect-recovery-garbage.js';

const newHome = temporaryFolders('gc');
afterEach(() => {
  forgetRegisteredSecrets();
});

const DAY = 24 * 60 * 60 * 1000;
const now = new Date('2026-03-01T12:00:00Z');

/** Saves `content` and dates it `daysAgo` days before `now`. */
function saved(home: string, content: string, daysAgo: number): SavedContent {
  const entry = saveRemovedContent(home, content);
  const time = new Date(now.getTime() - daysAgo * DAY);
  utimesSync(entry.path, time, time);
  return entry;
}

function writeJson(path: string, value: unknown): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, JSON.stringify(value));
}

const policy = { maxAgeDays: 30, maxTotalMB: 500 };

describe('collectRecoveryGarbage', () => {
  it('deletes unreferenced entries older than maxAgeDays; keeps referenced and young ones', () => {
    const home = newHome();
    const aged = saved(home, 'aged and unreferenced', 40);
    const inContext = saved(home, 'aged, named by a saved context', 40);
    const inSnapshot = saved(home, 'aged, named by a snapshot', 40);
    const byPath = saved(home, 'aged, named by its path in removed[]', 40);
    const young = saved(home, 'young', 2);
    writeJson(join(home, 'sessions', 's1', 'context.json'), {
      context: { messages: [{ parts: [{ type: 'text', text: `[ollm: output cut; full output: ollm recover ${inContext.sha256.slice(0, 12)}]` }] }] },
    });
    writeJson(join(home, 'snapshots', 's1', '20260101-000-abcdef.json'), {
      context: { messages: [{ parts: [{ type: 'text', text: `see [ollm fold ${inSnapshot.sha256.slice(0, 12).toUpperCase()}]` }] }] },
      removed: [{ path: byPath.path }],
    });
    const report = collectRecoveryGarbage({ home, ...policy, now });
    expect(report.deleted.map((entry) => [entry.sha256, entry.reason])).toEqual([[aged.sha256, 'age']]);
    expect(report.referenced).toBe(3);
    expect(report.entries).toBe(5);
    expect(report.deletedBytes).toBe('aged and unreferenced'.length);
    expect(existsSync(aged.path)).toBe(false);
    for (const entry of [inContext, inSnapshot, byPath, young]) expect(existsSync(entry.path)).toBe(true);
  });

  it('a dry run reports the same and deletes nothing', () => {
    const home = newHome();
    const aged = saved(home, 'aged', 40);
    const report = collectRecoveryGarbage({ home, ...policy, now, dryRun: true });
    expect(report.dryRun).toBe(true);
    expect(report.deleted.map((entry) => entry.sha256)).toEqual([aged.sha256]);
    expect(existsSync(aged.path)).toBe(true);
  });

  it('over maxTotalMB, evicts the oldest unreferenced entries first, until the store fits', () => {
    const home = newHome();
    const megabyte = 'x'.repeat(1024 * 1024 - 20);
    const oldest = saved(home, `${megabyte}oldest`, 5);
    const referencedOldest = saved(home, `${megabyte}referenced`, 6);
    const middle = saved(home, `${megabyte}middle`, 4);
    const newest = saved(home, `${megabyte}newest`, 3);
    writeJson(join(home, 'sessions', 's', 'context.json'), { text: `ollm recover ${referencedOldest.sha256.slice(0, 12)}` });
    const report = collectRecoveryGarbage({ home, maxAgeDays: 30, maxTotalMB: 2.5, now });
    expect(report.deleted.map((entry) => [entry.sha256, entry.reason])).toEqual([
      [oldest.sha256, 'size'],
      [middle.sha256, 'size'],
    ]);
    expect(report.stillOverLimit).toBe(false);
    expect(existsSync(referencedOldest.path)).toBe(true);
    expect(existsSync(newest.path)).toBe(true);
  });

  it('never deletes a referenced or just-saved entry, even over the cap, and says the store is still over it', () => {
    const home = newHome();
    const referenced = saved(home, 'r'.repeat(2 * 1024 * 1024), 90);
    const fresh = saveRemovedContent(home, 'f'.repeat(1024 * 1024));
    writeJson(join(home, 'snapshots', 's', 'a.json'), { sha256: referenced.sha256 });
    const report = collectRecoveryGarbage({ home, maxAgeDays: 1, maxTotalMB: 1, now: new Date() });
    expect(report.deleted).toEqual([]);
    expect(report.recent).toBe(1);
    expect(report.stillOverLimit).toBe(true);
    expect(existsSync(referenced.path) && existsSync(fresh.path)).toBe(true);
  });

  it('deletes a redacted entry with its marker, and markers left without their entry', () => {
    const home = newHome();
    registerSecret('gc-secret-key');
    const entry = saved(home, 'holds gc-secret-key', 40);
    writeFileSync(join(home, 'removed', `${'c'.repeat(64)}.redacted`), `${'d'.repeat(64)}\n`);
    const report = collectRecoveryGarbage({ home, ...policy, now });
    expect(report.deleted.map((deleted) => deleted.sha256)).toEqual([entry.sha256]);
    expect(report.orphanMarkers).toBe(1);
    expect(readdirSync(join(home, 'removed'))).toEqual([]);
  });

  it('at chat start (onlyWhenDue) reads nothing more when the store is within its limits', () => {
    const home = newHome();
    saved(home, 'young', 1);
    const report = collectRecoveryGarbage({ home, ...policy, now, onlyWhenDue: true });
    expect(report.collected).toBe(false);
    expect(report.entries).toBe(1);
    saved(home, 'aged', 31);
    expect(collectRecoveryGarbage({ home, ...policy, now, onlyWhenDue: true }).deleted).toHaveLength(1);
  });

  it('content saved again counts as new: saving touches the entry', () => {
    const home = newHome();
    const entry = saved(home, 'saved long ago, and again now', 40);
    saveRemovedContent(home, 'saved long ago, and again now');
    expect(collectRecoveryGarbage({ home, ...policy, now: new Date() }).deleted).toEqual([]);
    expect(existsSync(entry.path)).toBe(true);
  });
});
