import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolders } from '../test-support/temporary-folders.js';
import { SnapshotStore, type ContextState } from './snapshot-store.js';

const newHome = temporaryFolders('snapshots');

const state = (text: string): ContextState => ({
  systemPrompt: 'You are terse.',
  messages: [{ id: 'm1', role: 'user', parts: [{ type: 'text', text }], timestamp: '2026-01-01T00:00:00.000Z' }],
  goal: {
    description: 'ship',
    checkpoints: [{ description: 'plan', status: 'completed' }],
    decisions: [{ description: 'use zod', locked: true }],
    artifacts: [],
  },
  compactionCount: 2,
  providerState: { 'goal-aware': { checkpoints: 1 } },
});

describe('SnapshotStore', () => {
  it('creates, lists newest first, reads back exactly, and deletes', async () => {
    const store = new SnapshotStore({ home: newHome() });
    const first = store.create({ sessionId: 's', automatic: false, context: state('one'), tokenCount: 10, messageCount: 1, checkpointCount: 0, metadata: {} });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = store.create({
      sessionId: 's',
      automatic: true,
      context: state('two'),
      tokenCount: 12,
      messageCount: 1,
      checkpointCount: 0,
      metadata: { model: 'm' },
    });
    expect(store.list('s').map((snapshot) => snapshot.id)).toEqual([second.id, first.id]);
    expect(store.read('s', first.id).context).toEqual(state('one'));
    store.delete('s', first.id);
    expect(store.list('s').map((snapshot) => snapshot.id)).toEqual([second.id]);
    expect(() => store.read('s', first.id)).toThrowError(/No snapshot/);
  });

  it('keeps only the newest N', () => {
    const home = newHome();
    const store = new SnapshotStore({ home, retain: 3 });
    const ids = Array.from(
      { length: 5 },
      (_, index) =>
        store.create({ sessionId: 's', automatic: true, context: state(String(index)), tokenCount: 1, messageCount: 1, checkpointCount: 0, metadata: {} }).id,
    );
    expect(store.list('s').map((snapshot) => snapshot.id)).toEqual(ids.slice(2).reverse());
    expect(readdirSync(join(home, 'snapshots', 's'))).toHaveLength(3);
  });

  it('counts manual and automatic snapshots apart: automatic ones never prune a manual one', () => {
    const home = newHome();
    const store = new SnapshotStore({ home, retain: 3, retainManual: 2 });
    const create = (automatic: boolean, text: string) =>
      store.create({ sessionId: 's', automatic, context: state(text), tokenCount: 1, messageCount: 1, checkpointCount: 0, metadata: {} }).id;
    const mine = create(false, 'mine');
    const automatic = Array.from({ length: 25 }, (_, index) => create(true, `auto ${index}`));
    expect(store.list('s').map((snapshot) => snapshot.id)).toEqual([...automatic.slice(-3).reverse(), mine]);
    expect(store.read('s', mine).context).toEqual(state('mine'));
    // Manual ones have their own quota.
    const more = [create(false, 'second'), create(false, 'third')];
    const manual = store
      .list('s')
      .filter((snapshot) => !snapshot.automatic)
      .map((snapshot) => snapshot.id);
    expect(manual).toEqual([...more].reverse());
  });

  it('never prunes a kept snapshot, which takes no place in the quotas, and leaves its file unchanged', () => {
    const home = newHome();
    const store = new SnapshotStore({ home, retain: 2, retainManual: 1 });
    const create = (automatic: boolean, text: string, keep = false) =>
      store.create({ sessionId: 's', automatic, context: state(text), tokenCount: 1, messageCount: 1, checkpointCount: 0, metadata: {} }, { keep }).id;
    const important = create(false, 'important', true);
    const autoKept = create(true, 'auto kept');
    const written = readFileSync(join(home, 'snapshots', 's', `${autoKept}.json`), 'utf8');
    store.keep('s', autoKept);
    expect(readFileSync(join(home, 'snapshots', 's', `${autoKept}.json`), 'utf8')).toBe(written);
    const automatic = Array.from({ length: 6 }, (_, index) => create(true, `auto ${index}`));
    const manual = [create(false, 'm1'), create(false, 'm2')];
    const listed = store.list('s');
    expect(listed.map((snapshot) => snapshot.id)).toEqual([manual[1], ...automatic.slice(-2).reverse(), autoKept, important]);
    expect(listed.filter((snapshot) => snapshot.kept).map((snapshot) => snapshot.id)).toEqual([autoKept, important]);
    expect(store.read('s', important).kept).toBe(true);
    // Unkept, it counts again: the next automatic snapshot prunes it as the oldest.
    store.keep('s', autoKept, false);
    create(true, 'one more');
    expect(store.list('s').map((snapshot) => snapshot.id)).not.toContain(autoKept);
    expect(() => store.keep('s', autoKept)).toThrow(/No snapshot/);
    // Deleting one removes its mark too.
    store.delete('s', important);
    expect(readdirSync(join(home, 'snapshots', 's')).filter((name) => name.startsWith(important))).toEqual([]);
  });

  it('finds a snapshot by a part only it has: the start of its id or of its random part', () => {
    let now = Date.UTC(2031, 1, 2, 3, 4, 5);
    const store = new SnapshotStore({ home: newHome(), clock: () => new Date((now += 60_000)) });
    const create = (text: string) =>
      store.create({ sessionId: 's', automatic: false, context: state(text), tokenCount: 1, messageCount: 1, checkpointCount: 0, metadata: {} }).id;
    const [first, second] = [create('one'), create('two')];
    expect(store.read('s', first.slice(0, 12)).id).toBe(first);
    expect(store.read('s', first.split('-')[2]!).id).toBe(first);
    expect(store.resolveId('s', second)).toBe(second);
    expect(() => store.read('s', '2031')).toThrow(`"2031" names 2 snapshots in session "s" (${first}, ${second}): give more of the id.`);
    expect(() => store.read('s', '2099')).toThrow('No snapshot "2099" in session "s".');
    store.keep('s', second.split('-')[2]!);
    expect(store.read('s', second).kept).toBe(true);
    store.delete('s', first.slice(0, 12));
    expect(store.list('s').map((snapshot) => snapshot.id)).toEqual([second]);
  });

  it('tells the kind of a snapshot written before ids said it by reading it', () => {
    const home = newHome();
    const store = new SnapshotStore({ home, retain: 1 });
    const old = store.create({ sessionId: 's', automatic: false, context: state('old'), tokenCount: 1, messageCount: 1, checkpointCount: 0, metadata: {} });
    // Rename it as ollm wrote ids before: no kind letter.
    const folder = join(home, 'snapshots', 's');
    const legacyId = old.id.replace(/-m$/, '');
    renameSync(join(folder, `${old.id}.json`), join(folder, `${legacyId}.json`));
    for (let index = 0; index < 3; index += 1)
      store.create({ sessionId: 's', automatic: true, context: state(String(index)), tokenCount: 1, messageCount: 1, checkpointCount: 0, metadata: {} });
    expect(readdirSync(folder)).toContain(`${legacyId}.json`);
    expect(readdirSync(folder)).toHaveLength(2);
  });

  it('refuses ids that escape the home folder and never writes secrets', () => {
    const home = newHome();
    const store = new SnapshotStore({ home, secrets: ['sk-secret-value-123'] });
    expect(() => store.read('../x', 'a')).toThrowError(/Invalid session id/);
    expect(() => store.read('s', '../../etc/passwd')).toThrowError(/Invalid snapshot id/);
    const snapshot = store.create({
      sessionId: 's',
      automatic: false,
      context: state('key sk-secret-value-123'),
      tokenCount: 1,
      messageCount: 1,
      checkpointCount: 0,
      metadata: {},
    });
    const text = readFileSync(join(home, 'snapshots', 's', `${snapshot.id}.json`), 'utf8');
    expect(text).not.toContain('sk-secret-value-123');
  });

  it('never writes a key with a quote and a backslash (redacted before serialising)', () => {
    const home = newHome();
    const quoted = 'sk-"back\\slash';
    const store = new SnapshotStore({ home, secrets: [quoted] });
    const snapshot = store.create({
      sessionId: 's',
      automatic: false,
      context: state(`key ${quoted}`),
      tokenCount: 1,
      messageCount: 1,
      checkpointCount: 0,
      metadata: {},
    });
    const text = readFileSync(join(home, 'snapshots', 's', `${snapshot.id}.json`), 'utf8');
    expect(text).not.toContain(JSON.stringify(quoted).slice(1, -1));
    expect(text).toContain('key [redacted]');
  });
});

describe('a damaged snapshot', () => {
  it('is skipped by list and reported with its path; reading it names the file', () => {
    const home = newHome();
    const damaged: string[] = [];
    const store = new SnapshotStore({ home, onDamaged: (path, error) => damaged.push(`${path}: ${error.message}`) });
    const create = (text: string) =>
      store.create({ sessionId: 's', automatic: false, context: state(text), tokenCount: 1, messageCount: 1, checkpointCount: 0, metadata: {} }).id;
    const [good, cut] = [create('one'), create('two')];
    const path = join(home, 'snapshots', 's', `${cut}.json`);
    writeFileSync(path, readFileSync(path, 'utf8').slice(0, 40));
    expect(store.list('s').map((snapshot) => snapshot.id)).toEqual([good]);
    expect(damaged).toEqual([expect.stringMatching(new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: The snapshot .* is damaged: `))]);
    expect(() => store.read('s', cut)).toThrow(`The snapshot ${path} is damaged`);
  });
});
