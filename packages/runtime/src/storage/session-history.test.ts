import type { GoalState, Message } from '@ollm/core';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, appendFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { temporaryFolders } from '../test-support/temporary-folders.js';
import { exportSession } from './export-session.js';
import { SessionHistory, deleteSession, listSessions, readSession } from './session-history.js';

const here = dirname(fileURLToPath(import.meta.url));
const writerScript = join(here, 'test-support', 'session-writer.mjs');
const builtCore = join(here, '..', '..', 'dist', 'index.js');
const ROUNDS = 8;

const newHome = temporaryFolders('history');

const user = (id: string, text: string): Message => ({ id, role: 'user', parts: [{ type: 'text', text }], timestamp: '2026-01-01T00:00:00.000Z' });

describe('SessionHistory', () => {
  it('records every message with metadata and reads it back', () => {
    const home = newHome();
    const history = new SessionHistory({ home, sessionId: 's1', model: 'llama3.2:3b', provider: 'ollama' });
    history.append(user('a', 'hello'), 5);
    history.append({ id: 'b', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c1', name: 'bash', input: { command: 'ls' } }] }, 9);
    history.append({ id: 'c', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: 'file.txt' }] }, 4);
    history.recordCompaction({ provider: 'trim', tokensBefore: 18, tokensAfter: 10 });
    history.close();
    const record = readSession(home, 's1');
    expect(record.messages.map((message) => message.id)).toEqual(['a', 'b', 'c']);
    expect(record.metadata).toEqual({ tokenCount: 18, compactionCount: 1, compressionCount: 1, messageCount: 3 });
    expect(record.model).toBe('llama3.2:3b');
    const exported = exportSession(record);
    expect(exported.toolCalls).toEqual([{ id: 'c1', name: 'bash', args: { command: 'ls' }, result: { llmContent: 'file.txt' } }]);
    expect(exported.metadata).toEqual({ tokenCount: 18, compactionCount: 1, compressionCount: 1 });
    expect(listSessions(home).map((session) => session.sessionId)).toEqual(['s1']);
    deleteSession(home, 's1');
    expect(listSessions(home)).toEqual([]);
  });

  it('keeps the deprecated recordCompression, and reads the compression entries ollm 0.1 wrote', () => {
    const home = newHome();
    const history = new SessionHistory({ home, sessionId: 's-old' });
    history.recordCompression({ provider: 'trim', tokensBefore: 18, tokensAfter: 10 });
    appendFileSync(
      history.path,
      `${JSON.stringify({ type: 'compression', provider: 'mask', tokensBefore: 10, tokensAfter: 8, at: '2026-01-01T00:00:01.000Z' })}\n`,
    );
    history.close();
    const lines = readFileSync(history.path, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.map((line) => line.type)).toEqual(['session', 'compaction', 'compression']);
    expect(readSession(home, 's-old').metadata).toMatchObject({ compactionCount: 2, compressionCount: 2 });
  });

  it('appends without rewriting: earlier bytes never change', () => {
    const home = newHome();
    const history = new SessionHistory({ home, sessionId: 's2' });
    history.append(user('a', 'first'));
    const before = readFileSync(history.path);
    history.append(user('b', 'second'));
    const after = readFileSync(history.path);
    expect(after.subarray(0, before.length).equals(before)).toBe(true);
    history.close();
  });

  it('never writes a secret', () => {
    const home = newHome();
    const secret = 'sk-test-0123456789abcdef';
    const history = new SessionHistory({ home, sessionId: 's3', secrets: [secret] });
    history.append(user('a', `my key is ${secret}`));
    history.close();
    const text = readFileSync(history.path, 'utf8');
    expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
  });

  it('never writes a key with quotes or backslashes or a 6-character key; URL credentials in content stay content', () => {
    const home = newHome();
    const quoted = 'sk-"q\\uo"ted';
    const history = new SessionHistory({ home, sessionId: 's3q', secrets: [quoted, 'k3y!9z'] });
    history.append(user('a', `keys ${quoted} and k3y!9z at http://me:hunter2pw@host/`));
    history.close();
    const text = readFileSync(history.path, 'utf8');
    for (const leaked of [quoted, JSON.stringify(quoted).slice(1, -1), 'k3y!9z']) expect(text).not.toContain(leaked);
    expect(readSession(home, 's3q').messages[0]!.parts).toEqual([{ type: 'text', text: 'keys [redacted] and [redacted] at http://me:hunter2pw@host/' }]);
  });

  it('ignores a line cut by a crash and repairs it before the next append', () => {
    const home = newHome();
    const history = new SessionHistory({ home, sessionId: 's4' });
    history.append(user('a', 'kept'));
    history.close();
    appendFileSync(history.path, '{"type":"message","message":{"id":"half');
    const damaged = readSession(home, 's4');
    expect(damaged.recoveredFromPartialWrite).toBe(true);
    expect(damaged.messages.map((message) => message.id)).toEqual(['a']);
    const again = new SessionHistory({ home, sessionId: 's4' });
    again.append(user('b', 'after the crash'));
    again.close();
    const repaired = readSession(home, 's4');
    expect(repaired.recoveredFromPartialWrite).toBe(false);
    expect(repaired.messages.map((message) => message.id)).toEqual(['a', 'b']);
  });

  it('records goal states with appendGoal, redacted, and reads them back in order; files without any read as before', () => {
    const home = newHome();
    const secret = 'sk-goal-0123456789abcdef';
    let tick = 0;
    const clock = () => new Date(Date.UTC(2030, 5, 1, 12, 0, tick++));
    const history = new SessionHistory({ home, sessionId: 's-goal', secrets: [secret], clock });
    const first: GoalState = { description: `rotate ${secret}`, checkpoints: [], decisions: [], artifacts: [] };
    // Structural: fields a newer GoalState adds are kept as they are.
    const second = {
      ...first,
      checkpoints: [{ description: 'find the key', status: 'completed' as const }],
      next: 'revoke it',
      id: 'goal-0000abcd',
      priority: 'high',
    } as GoalState;
    history.append(user('a', 'hello'));
    history.appendGoal(first);
    history.appendGoal(second);
    history.close();
    const lines = readFileSync(history.path, 'utf8').trim().split('\n');
    expect(lines.at(-1)).not.toContain(secret);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ type: 'goal', goal: { ...second, description: 'rotate [redacted]' }, at: '2030-06-01T12:00:03.000Z' });
    const record = readSession(home, 's-goal');
    expect(record.goals.map((goal) => goal.description)).toEqual(['rotate [redacted]', 'rotate [redacted]']);
    expect(record.goals[1]).toMatchObject({ next: 'revoke it', id: 'goal-0000abcd', priority: 'high' });
    // Goal entries are not messages, and do not move the last activity.
    expect(record.metadata.messageCount).toBe(1);
    expect(record.lastActivity).toBe('2030-06-01T12:00:01.000Z');

    const old = new SessionHistory({ home, sessionId: 's-no-goal' });
    old.append(user('a', 'hi'));
    old.close();
    expect(readSession(home, 's-no-goal').goals).toEqual([]);
  });

  it('refuses ids that would escape the home folder', () => {
    const home = newHome();
    for (const id of ['../x', '/abs', 'a\0b']) expect(() => new SessionHistory({ home, sessionId: id })).toThrowError(/Invalid session id/);
    expect(() => readSession(home, '../../etc')).toThrowError(/Invalid session id/);
  });
});

describe.skipIf(!existsSync(builtCore))('SessionHistory across processes (uses the built core: run `pnpm build` first)', () => {
  function runWriter(home: string, sessionId: string, writer: string, count: string) {
    return spawn(process.execPath, [writerScript, home, sessionId, writer, count], { stdio: ['ignore', 'pipe', 'inherit'] });
  }

  it('survives SIGKILL at random points: the session stays readable and loses at most the entry being written', async () => {
    const home = newHome();
    for (let round = 0; round < ROUNDS; round += 1) {
      const child = runWriter(home, 'crash', `w${round}`, 'forever');
      await new Promise<void>((resolve) => child.stdout!.once('data', () => resolve()));
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)));
      child.kill('SIGKILL');
      await new Promise((resolve) => child.once('exit', resolve));
      const record = readSession(home, 'crash');
      const mine = record.messages.filter((message) => message.id.startsWith(`w${round}-`));
      expect(mine.length).toBeGreaterThan(20);
      // Contiguous from 0: nothing lost but possibly the one entry cut by the kill.
      mine.forEach((message, index) => expect(message.id).toBe(`w${round}-${index}`));
    }
    const record = readSession(home, 'crash');
    for (let round = 0; round < ROUNDS; round += 1) expect(record.messages.some((message) => message.id === `w${round}-0`)).toBe(true);
  }, 120_000);

  it('serialises two writers: every entry whole, each writer in its own order', async () => {
    const home = newHome();
    const writers = ['left', 'right'].map((name) => runWriter(home, 'shared', name, '200'));
    await Promise.all(writers.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    const record = readSession(home, 'shared');
    expect(record.recoveredFromPartialWrite).toBe(false);
    expect(record.messages).toHaveLength(400);
    for (const name of ['left', 'right']) {
      const ids = record.messages.filter((message) => message.id.startsWith(`${name}-`)).map((message) => message.id);
      expect(ids).toEqual(Array.from({ length: 200 }, (_, index) => `${name}-${index}`));
    }
    const headers = readFileSync(join(home, 'sessions', 'shared', 'history.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.includes('"type":"session"'));
    expect(headers).toHaveLength(1);
  }, 120_000);
});
