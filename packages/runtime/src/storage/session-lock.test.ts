import { InvalidArgumentError, OllmError } from '@ollm/core';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SessionInUseError } from '../errors/session-in-use-error.js';
import { SESSION_LOCK_FILE, acquireSessionLock, type SessionLock } from './session-lock.js';

// Every synchronous fs call the lock makes is observed, to check the lock file is never seen
// without its full content (see "never half-written" below).
const watched = vi.hoisted(() => ({
  actual: undefined as unknown as typeof import('node:fs'),
  observe: undefined as undefined | ((operation: string, args: readonly unknown[]) => void),
}));
vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  watched.actual = actual;
  const observed = ['writeFileSync', 'appendFileSync', 'openSync', 'linkSync', 'renameSync', 'rmSync', 'unlinkSync', 'mkdirSync'] as const;
  const wrappers = Object.fromEntries(
    observed.map((name) => [
      name,
      (...args: unknown[]) => {
        watched.observe?.(name, args);
        const result = (actual[name] as (...parameters: unknown[]) => unknown)(...args);
        watched.observe?.(name, args);
        return result;
      },
    ]),
  );
  return { ...actual, ...wrappers, default: { ...actual, ...wrappers } };
});

const here = dirname(fileURLToPath(import.meta.url));
const builtCore = join(here, '..', '..', 'dist', 'index.js');
const homes: string[] = [];
const locks: SessionLock[] = [];
const children: ChildProcess[] = [];

function newHome(): string {
  const home = mkdtempSync(join(tmpdir(), 'ollm-session-lock-'));
  homes.push(home);
  return home;
}

function acquire(options: Parameters<typeof acquireSessionLock>[0]): SessionLock {
  const lock = acquireSessionLock(options);
  locks.push(lock);
  return lock;
}

function lockPath(home: string, sessionId: string): string {
  return join(home, 'sessions', sessionId, SESSION_LOCK_FILE);
}

/** Writes a lock as another process would have left it. */
function plantLock(home: string, sessionId: string, pid: number): void {
  mkdirSync(join(home, 'sessions', sessionId), { recursive: true });
  writeFileSync(lockPath(home, sessionId), `${JSON.stringify({ pid, startTime: '2026-01-01T00:00:00.000Z', token: 'planted' })}\n`);
}

function readOwner(home: string, sessionId: string): { pid: number; startTime: string } {
  return JSON.parse(readFileSync(lockPath(home, sessionId), 'utf8')) as { pid: number; startTime: string };
}

/** A process that stays alive until killed. */
function liveProcess(): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

afterEach(() => {
  watched.observe = undefined;
  for (const lock of locks.splice(0)) lock.release();
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

describe('acquireSessionLock', () => {
  it('takes the lock with our pid and start time, and release removes it', () => {
    const home = newHome();
    const before = Date.now();
    const lock = acquire({ home, sessionId: 's1' });
    expect(lock).toMatchObject({
      sessionId: 's1',
      path: lockPath(home, 's1'),
      pid: process.pid,
      tookOverStaleLock: false,
      tookOverLiveLock: false,
      previousPid: undefined,
    });
    const owner = readOwner(home, 's1');
    expect(owner.pid).toBe(process.pid);
    expect(owner.startTime).toBe(lock.startTime);
    expect(Date.parse(owner.startTime)).toBeGreaterThanOrEqual(before - 1);
    lock.release();
    expect(existsSync(lockPath(home, 's1'))).toBe(false);
    // Free again, and other sessions never were locked.
    acquire({ home, sessionId: 's1' });
    acquire({ home, sessionId: 's2' });
  });

  it('refuses a second acquire of a held session, naming the holder pid', () => {
    const home = newHome();
    acquire({ home, sessionId: 's1' });
    const error = (() => {
      try {
        acquireSessionLock({ home, sessionId: 's1' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(SessionInUseError.isInstance(error)).toBe(true);
    expect((error as SessionInUseError).pid).toBe(process.pid);
    expect(readOwner(home, 's1').pid).toBe(process.pid);
  });

  it('refuses a session held by another running process, with the one-line message', async () => {
    const home = newHome();
    const holder = liveProcess();
    await new Promise((resolve) => holder.once('spawn', resolve));
    plantLock(home, 's1', holder.pid!);
    expect(() => acquireSessionLock({ home, sessionId: 's1' })).toThrowError(
      `Session s1 is open in another ollm (pid ${holder.pid}); end that chat first, or pass --force if it is not running.`,
    );
    expect(readOwner(home, 's1').pid).toBe(holder.pid);
  });

  it('takes over, silently but flagged, a lock whose pid is dead', async () => {
    const home = newHome();
    const pid = await deadPid();
    plantLock(home, 's1', pid);
    const lock = acquire({ home, sessionId: 's1' });
    expect(lock).toMatchObject({ tookOverStaleLock: true, tookOverLiveLock: false, previousPid: pid });
    expect(readOwner(home, 's1').pid).toBe(process.pid);
  });

  it('treats an unreadable lock as stale', () => {
    const home = newHome();
    mkdirSync(join(home, 'sessions', 's1'), { recursive: true });
    writeFileSync(lockPath(home, 's1'), 'not json');
    expect(acquire({ home, sessionId: 's1' })).toMatchObject({ tookOverStaleLock: true, previousPid: undefined });
  });

  it('with force, takes the lock from a running process', async () => {
    const home = newHome();
    const holder = liveProcess();
    await new Promise((resolve) => holder.once('spawn', resolve));
    plantLock(home, 's1', holder.pid!);
    const lock = acquire({ home, sessionId: 's1', force: true });
    expect(lock).toMatchObject({ tookOverStaleLock: false, tookOverLiveLock: true, previousPid: holder.pid });
    expect(readOwner(home, 's1').pid).toBe(process.pid);
  });

  it('release is idempotent and never removes a lock that is no longer ours', () => {
    const home = newHome();
    const first = acquire({ home, sessionId: 's1' });
    first.release();
    first.release();
    const second = acquire({ home, sessionId: 's1' });
    first.release();
    expect(existsSync(lockPath(home, 's1'))).toBe(true);
    // Forced over by a newer handle: the old handle's release leaves the new lock alone.
    const third = acquire({ home, sessionId: 's1', force: true });
    second.release();
    expect(readFileSync(lockPath(home, 's1'), 'utf8')).toContain(third.startTime);
    third.release();
    expect(existsSync(lockPath(home, 's1'))).toBe(false);
    // Removed behind our back: still fine.
    const fourth = acquire({ home, sessionId: 's1' });
    rmSync(lockPath(home, 's1'));
    expect(() => fourth.release()).not.toThrow();
  });

  it('releases on process exit, and release unregisters that', () => {
    const home = newHome();
    const before = process.listeners('exit');
    const lock = acquire({ home, sessionId: 's1' });
    const added = process.listeners('exit').filter((listener) => !before.includes(listener));
    expect(added).toHaveLength(1);
    (added[0] as () => void)();
    expect(existsSync(lock.path)).toBe(false);
    expect(process.listeners('exit')).toEqual(before);
  });

  it('validates the session id', () => {
    const home = newHome();
    for (const id of ['../x', '/abs', 'a/b', 'a\0b', '']) {
      const error = (() => {
        try {
          acquireSessionLock({ home, sessionId: id });
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/Invalid session id/);
    }
    expect(existsSync(join(home, 'sessions'))).toBe(false);
  });

  it('never leaves the lock half-written: it is only ever linked or renamed into place, whole', async () => {
    const home = newHome();
    const path = lockPath(home, 's1');
    const problems: string[] = [];
    watched.observe = (operation, args) => {
      if (['writeFileSync', 'appendFileSync', 'openSync'].includes(operation) && args[0] === path) problems.push(`${operation} wrote the lock in place`);
      if (!watched.actual.existsSync(path)) return;
      const content = watched.actual.readFileSync(path, 'utf8');
      if (!/^\{"pid":\d+,"startTime":"[^"]+","token":"[^"]+"\}\n$/.test(content)) problems.push(`after ${operation}: ${JSON.stringify(content)}`);
    };
    const first = acquire({ home, sessionId: 's1' });
    first.release();
    const stale = await deadPid();
    watched.observe = undefined;
    plantLock(home, 's1', stale);
    watched.observe = (operation, args) => {
      if (['writeFileSync', 'appendFileSync', 'openSync'].includes(operation) && args[0] === path) problems.push(`${operation} wrote the lock in place`);
      if (!watched.actual.existsSync(path)) return;
      const content = watched.actual.readFileSync(path, 'utf8');
      const pid = /^\{"pid":(\d+),"startTime":"[^"]+","token":"[^"]+"\}\n$/.exec(content)?.[1];
      if (pid !== String(stale) && pid !== String(process.pid)) problems.push(`after ${operation}: ${JSON.stringify(content)}`);
    };
    acquire({ home, sessionId: 's1' }).release();
    acquire({ home, sessionId: 's1' });
    acquire({ home, sessionId: 's1', force: true });
    expect(problems).toEqual([]);
  });
});

describe('SessionInUseError', () => {
  it('is an OllmError with its code, fields and message', () => {
    const error = new SessionInUseError({ sessionId: 'abc', pid: 4242 });
    expect(SessionInUseError.isInstance(error)).toBe(true);
    expect(OllmError.isInstance(error)).toBe(true);
    expect(SessionInUseError.isInstance(new OllmError({ code: 'session-in-use', message: 'x' }))).toBe(false);
    expect(SessionInUseError.isInstance(new Error('x'))).toBe(false);
    expect([error.code, error.name, error.sessionId, error.pid]).toEqual(['session-in-use', 'SessionInUseError', 'abc', 4242]);
    expect(error.message).toBe('Session abc is open in another ollm (pid 4242); end that chat first, or pass --force if it is not running.');
  });
});

const builtHasLock = existsSync(builtCore) && readFileSync(builtCore, 'utf8').includes('acquireSessionLock');

describe.skipIf(!builtHasLock)('acquireSessionLock across processes (uses the built core: run `pnpm --filter @ollm/core build` first)', () => {
  // Takes the lock, prints the outcome as one JSON line, and holds it until stdin closes.
  const holderScript = `
    const [core, home, sessionId] = process.argv.slice(1);
    const { acquireSessionLock, SessionInUseError } = await import(core);
    try {
      const lock = acquireSessionLock({ home, sessionId });
      console.log(JSON.stringify({ acquired: true, pid: lock.pid }));
      process.stdin.resume();
      process.stdin.on('end', () => process.exit(0));
    } catch (error) {
      console.log(JSON.stringify({ acquired: false, holder: SessionInUseError.isInstance(error) ? error.pid : String(error) }));
    }`;

  function runHolder(home: string, sessionId: string): { child: ChildProcess; outcome: Promise<{ acquired: boolean; pid?: number; holder?: number }> } {
    const child = spawn(process.execPath, ['--input-type=module', '-e', holderScript, pathToFileURL(builtCore).href, home, sessionId], {
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    children.push(child);
    const outcome = new Promise<{ acquired: boolean; pid?: number; holder?: number }>((resolve) => {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('\n')) resolve(JSON.parse(output.split('\n')[0]!) as { acquired: boolean });
      });
    });
    return { child, outcome };
  }

  it('lets exactly one of several racing processes take the lock; the others are told its pid', async () => {
    const home = newHome();
    const holders = Array.from({ length: 6 }, () => runHolder(home, 'race'));
    const outcomes = await Promise.all(holders.map((holder) => holder.outcome));
    const winners = outcomes.filter((outcome) => outcome.acquired);
    expect(winners).toHaveLength(1);
    for (const outcome of outcomes.filter((each) => !each.acquired)) expect(outcome.holder).toBe(winners[0]!.pid);
    expect(readOwner(home, 'race').pid).toBe(winners[0]!.pid);
  }, 60_000);

  it('is released when the owner exits, and left stale (then taken over) when it is SIGKILLed', async () => {
    const home = newHome();
    const polite = runHolder(home, 's1');
    expect((await polite.outcome).acquired).toBe(true);
    polite.child.stdin!.end();
    await new Promise((resolve) => polite.child.once('exit', resolve));
    expect(existsSync(lockPath(home, 's1'))).toBe(false);

    const killed = runHolder(home, 's1');
    const { pid } = await killed.outcome;
    killed.child.kill('SIGKILL');
    await new Promise((resolve) => killed.child.once('exit', resolve));
    expect(readOwner(home, 's1').pid).toBe(pid);
    expect(acquire({ home, sessionId: 's1' })).toMatchObject({ tookOverStaleLock: true, previousPid: pid });
  }, 60_000);
});
