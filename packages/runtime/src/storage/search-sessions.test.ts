import type { GoalState, Message } from '@ollm/core';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { temporaryFolders } from '../test-support/temporary-folders.js';
import { forEachLineBlock } from './read-line-blocks.js';
import { searchSessions } from './search-sessions.js';
import { searchSnippet } from './search-snippet.js';
import { anyCase } from './search-terms.js';
import { lastActivityOf, sessionFilesByActivity } from './session-activity.js';
import { SessionHistory, readSession } from './session-history.js';

const newHome = temporaryFolders('search');

/** A clock that starts at `start` and moves one second per reading: any day the tests run on. */
function ticking(start: string): () => Date {
  let time = Date.parse(start);
  return () => {
    const now = new Date(time);
    time += 1000;
    return now;
  };
}

const text = (id: string, role: Message['role'], body: string): Message => ({ id, role, parts: [{ type: 'text', text: body }] });

function record(
  home: string,
  sessionId: string,
  start: string,
  messages: readonly Message[],
  options: { secrets?: string[]; model?: string } = {},
): SessionHistory {
  const history = new SessionHistory({ home, sessionId, clock: ticking(start), model: options.model ?? 'fake-llama:8b', ...options });
  for (const message of messages) history.append(message);
  return history;
}

const goal = (overrides: Partial<GoalState> = {}): GoalState => ({
  description: 'Migrate the billing service to Postgres',
  checkpoints: [{ description: 'dump the MySQL schema', status: 'completed' }],
  decisions: [{ description: 'keep UUID primary keys', locked: true }],
  artifacts: [{ action: 'created', path: 'db/migrate/001_init.sql' }],
  next: 'port the invoices table',
  ...overrides,
});

describe('searchSessions', () => {
  it('finds text, tool calls (name and arguments) and tool results, case-insensitively, with the message index and role', () => {
    const home = newHome();
    record(home, 's1', '2030-05-01T10:00:00.000Z', [
      text('u1', 'user', 'Please read the CONFIG file'),
      { id: 'a1', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c1', name: 'read_file', input: { path: 'ollm.config.json' } }] },
      { id: 't1', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: '{"model":"qwen2.5-coder"}' }] },
      text('a2', 'assistant', 'The model is qwen2.5-coder.'),
    ]).close();

    const config = searchSessions(home, 'config');
    expect(config.hits.map((hit) => [hit.messageIndex, hit.role, hit.field])).toEqual([
      [0, 'user', 'text'],
      [1, 'assistant', 'tool-call'],
    ]);
    expect(config.hits[1]!.snippet.text).toBe('read_file {"path":"ollm.config.json"}');
    expect(config.hits[0]).toMatchObject({ sessionId: 's1', sessionStart: '2030-05-01T10:00:00.000Z', model: 'fake-llama:8b', source: 'message' });
    expect(config.truncated).toBe(false);

    expect(searchSessions(home, 'READ_FILE').hits.map((hit) => hit.messageIndex)).toEqual([1]);
    expect(searchSessions(home, 'Qwen2.5').hits.map((hit) => [hit.messageIndex, hit.field])).toEqual([
      [2, 'tool-result'],
      [3, 'text'],
    ]);
    // A quoted key of the arguments is found too, although the raw line holds it unescaped.
    expect(searchSessions(home, ['"path":"ollm']).hits.map((hit) => hit.messageIndex)).toEqual([1]);
    expect(searchSessions(home, 'nowhere to be found').hits).toEqual([]);
  });

  it('needs every word in the same message; a quoted phrase is matched as it is', () => {
    const home = newHome();
    record(home, 's1', '2030-05-01T10:00:00.000Z', [
      text('u1', 'user', 'the deploy failed on staging'),
      text('u2', 'user', 'staging is fine now'),
      {
        id: 'a1',
        role: 'assistant',
        parts: [
          { type: 'text', text: 'Rolling back the deploy.' },
          { type: 'reasoning', text: 'staging broke' },
        ],
      },
    ]).close();
    expect(searchSessions(home, 'staging deploy').hits.map((hit) => hit.messageIndex)).toEqual([0, 2]);
    expect(searchSessions(home, ['deploy failed']).hits.map((hit) => hit.messageIndex)).toEqual([0]);
    expect(searchSessions(home, ['failed deploy']).hits).toEqual([]);
    const highlighted = searchSessions(home, 'STAGING deploy').hits[0]!.snippet;
    expect(highlighted.matches.map((match) => highlighted.text.slice(match.start, match.start + match.length))).toEqual(['deploy', 'staging']);
  });

  it('finds goal states (description, checkpoints, decisions, artifacts, next), each text once per session', () => {
    const home = newHome();
    const history = record(home, 's1', '2030-05-01T10:00:00.000Z', [text('u1', 'user', 'start')]);
    history.appendGoal(goal());
    history.append(text('a1', 'assistant', 'ok'));
    history.appendGoal(goal({ next: 'port the payments table' }));
    history.close();

    const field = (query: string) => searchSessions(home, query).hits.map((hit) => [hit.source, hit.field, hit.messageIndex, hit.snippet.text]);
    expect(field('billing')).toEqual([['goal', 'goal', 1, 'Migrate the billing service to Postgres']]);
    expect(field('mysql')).toEqual([['goal', 'checkpoint', 1, 'dump the MySQL schema']]);
    expect(field('uuid')).toEqual([['goal', 'decision', 1, 'keep UUID primary keys']]);
    expect(field('001_init')).toEqual([['goal', 'artifact', 1, 'created db/migrate/001_init.sql']]);
    expect(field('table')).toEqual([
      ['goal', 'next', 1, 'port the invoices table'],
      ['goal', 'next', 2, 'port the payments table'],
    ]);
    // Words from two fields of one goal state make one hit.
    expect(field('postgres uuid')).toEqual([['goal', 'goal', 1, 'Migrate the billing service to Postgres']]);
    expect(searchSessions(home, 'billing').hits[0]!.role).toBeUndefined();
  });

  it('goes newest activity first, and in the order recorded inside a session', () => {
    const home = newHome();
    record(home, 'old', '2030-01-01T00:00:00.000Z', [text('o1', 'user', 'needle one'), text('o2', 'user', 'needle two')]).close();
    record(home, 'new', '2030-03-01T00:00:00.000Z', [text('n1', 'user', 'needle three')]).close();
    // Started in between, but active last.
    const middle = record(home, 'middle', '2030-02-01T00:00:00.000Z', [text('m1', 'user', 'needle four')]);
    middle.close();
    appendFileSync(middle.path, `${JSON.stringify({ type: 'message', message: text('m2', 'user', 'needle five'), at: '2030-04-01T00:00:00.000Z' })}\n`);
    const hits = searchSessions(home, 'needle').hits;
    expect(hits.map((hit) => `${hit.sessionId}:${hit.messageIndex}`)).toEqual(['middle:0', 'middle:1', 'new:0', 'old:0', 'old:1']);
    expect(hits[1]!.at).toBe('2030-04-01T00:00:00.000Z');
  });

  it('stops at the limit and says more existed, without reading the older sessions', () => {
    const home = newHome();
    for (let session = 0; session < 5; session += 1) {
      record(
        home,
        `s${session}`,
        `2030-01-0${session + 1}T00:00:00.000Z`,
        Array.from({ length: 3 }, (_, index) => text(`m${index}`, 'user', `match ${index}`)),
      ).close();
    }
    const limited = searchSessions(home, 'match', { limit: 4 });
    expect(limited.hits.map((hit) => `${hit.sessionId}:${hit.messageIndex}`)).toEqual(['s4:0', 's4:1', 's4:2', 's3:0']);
    expect(limited.truncated).toBe(true);
    expect(limited.sessionsSearched).toBe(2);
    const exact = searchSessions(home, 'match', { limit: 15 });
    expect([exact.hits.length, exact.truncated, exact.sessionsSearched]).toEqual([15, false, 5]);
    expect(searchSessions(home, 'match').hits).toHaveLength(15);
    expect(() => searchSessions(home, 'match', { limit: 0 })).toThrowError(/Invalid search limit 0/);
  });

  it('searches one session with `session`, and refuses an unknown or unsafe id', () => {
    const home = newHome();
    record(home, 'a', '2030-01-01T00:00:00.000Z', [text('1', 'user', 'shared word')]).close();
    record(home, 'b', '2030-01-02T00:00:00.000Z', [text('1', 'user', 'shared word')]).close();
    expect(searchSessions(home, 'shared', { session: 'a' }).hits.map((hit) => hit.sessionId)).toEqual(['a']);
    expect(() => searchSessions(home, 'shared', { session: 'nope' })).toThrowError(/No session "nope"/);
    expect(() => searchSessions(home, 'shared', { session: '../a' })).toThrowError(/Invalid session id/);
  });

  it('refuses an empty query', () => {
    const home = newHome();
    for (const query of ['', '   ', [], ['', ' ']]) expect(() => searchSessions(home, query)).toThrowError(/Nothing to search for/);
  });

  it('ignores a last line cut by a crash, and lines that are not JSON', () => {
    const home = newHome();
    const history = record(home, 's1', '2030-01-01T00:00:00.000Z', [text('u1', 'user', 'kept target')]);
    history.close();
    appendFileSync(history.path, 'not json but a target\n');
    appendFileSync(
      history.path,
      `${JSON.stringify({ type: 'message', message: text('u2', 'user', 'after the bad line, target'), at: '2030-01-01T00:00:09.000Z' })}\n`,
    );
    appendFileSync(history.path, '{"type":"message","message":{"id":"half","role":"user","parts":[{"type":"text","text":"cut target');
    expect(searchSessions(home, 'target').hits.map((hit) => [hit.messageIndex, hit.snippet.text])).toEqual([
      [0, 'kept target'],
      [1, 'after the bad line, target'],
    ]);
  });

  it('finds what was recorded redacted only as redacted', () => {
    const home = newHome();
    const secret = 'sk-test-0123456789abcdef';
    const history = record(home, 's1', '2030-01-01T00:00:00.000Z', [text('u1', 'user', `my key is ${secret} ok`)], { secrets: [secret] });
    history.appendGoal(goal({ description: `rotate ${secret} today` }));
    history.close();
    expect(searchSessions(home, secret).hits).toEqual([]);
    expect(searchSessions(home, '0123456789abcdef').hits).toEqual([]);
    const hits = searchSessions(home, 'redacted').hits;
    expect(hits.map((hit) => hit.snippet.text)).toEqual(['my key is [redacted] ok', 'rotate [redacted] today']);
    expect(JSON.stringify(hits)).not.toContain(secret);
  });

  it('counts messages right past long lines, lines that lower-casing lengthens, and block boundaries', () => {
    const home = newHome();
    const long = 'x'.repeat(3 << 20);
    record(home, 's1', '2030-01-01T00:00:00.000Z', [
      text('u0', 'user', '\u0130stanbul trip'),
      { id: 't1', role: 'tool', parts: [{ type: 'tool-result', callId: 'c', output: `${long} marker ${long}` }] },
      ...Array.from({ length: 3000 }, (_, index) => text(`f${index}`, 'user', `filler ${index} ${'y'.repeat(400)}`)),
      text('u-last', 'user', 'the marker again, \u0130'),
    ]).close();
    const hits = searchSessions(home, 'marker').hits;
    expect(hits.map((hit) => hit.messageIndex)).toEqual([1, 3002]);
    expect(hits[0]!.snippet.text.length).toBeLessThanOrEqual(122);
    expect(hits[0]!.snippet.text).toMatch(/^…x+ marker x+…$/);
    expect(searchSessions(home, 'istanbul').hits).toEqual([]);
    expect(searchSessions(home, '\u0130STANBUL').hits.map((hit) => hit.messageIndex)).toEqual([0]);
    expect(searchSessions(home, 'filler 2999').hits.map((hit) => hit.messageIndex)).toEqual([3001]);
    expect(readSession(home, 's1').messages[3001]!.id).toBe('f2999');
  });

  it('folds case as Unicode does, and takes regular-expression characters literally', () => {
    const home = newHome();
    record(home, 's1', '2030-01-01T00:00:00.000Z', [
      text('u1', 'user', 'Die STRAßE ist lang'),
      text('u2', 'user', 'a 300 \u212Aelvin reading'),
      text('u3', 'user', 'match a.*b (literally) and c-d/e'),
    ]).close();
    const indexes = (query: string | string[]) => searchSessions(home, query).hits.map((hit) => hit.messageIndex);
    expect(indexes('straße')).toEqual([0]);
    expect(indexes('KELVIN')).toEqual([1]);
    expect(indexes(['a.*b (literally)'])).toEqual([2]);
    expect(indexes('c-d/e')).toEqual([2]);
    expect(indexes('a.b')).toEqual([]);
  });

  it('reports the model recorded up to the hit', () => {
    const home = newHome();
    const history = record(home, 's1', '2030-01-01T00:00:00.000Z', [text('u1', 'user', 'before switch')], { model: 'small:1b' });
    history.recordMetadata({ model: 'large:70b' });
    history.append(text('u2', 'user', 'after switch'));
    history.close();
    expect(searchSessions(home, 'switch').hits.map((hit) => hit.model)).toEqual(['small:1b', 'large:70b']);
  });
});

describe('lastActivityOf and sessionFilesByActivity', () => {
  it('reads the last message or compaction from the end, past goal and metadata entries and a cut line; the start without one', () => {
    const home = newHome();
    const history = new SessionHistory({ home, sessionId: 's1', clock: ticking('2030-01-01T00:00:00.000Z') });
    expect(lastActivityOf(history.path)).toBe('2030-01-01T00:00:00.000Z');
    history.append(text('u1', 'user', 'hi'));
    history.recordCompaction({ provider: 'trim', tokensBefore: 10, tokensAfter: 5 });
    history.appendGoal(goal());
    history.recordMetadata({ model: 'm' });
    history.close();
    appendFileSync(history.path, '{"type":"message","message":{"id":"cut');
    expect(lastActivityOf(history.path)).toBe('2030-01-01T00:00:02.000Z');
    expect(lastActivityOf(history.path)).toBe(readSession(home, 's1').lastActivity);
  });

  it('finds the last entry behind lines far longer than one read', () => {
    const home = newHome();
    const history = new SessionHistory({ home, sessionId: 's1', clock: ticking('2030-01-01T00:00:00.000Z') });
    history.append(text('u1', 'user', 'z'.repeat(3 << 20)));
    history.appendGoal(goal({ description: 'g'.repeat(200_000) }));
    history.close();
    appendFileSync(history.path, `{"type":"message","message":{"id":"cut","parts":[{"type":"text","text":"${'c'.repeat(2 << 20)}`);
    expect(lastActivityOf(history.path)).toBe('2030-01-01T00:00:01.000Z');
  });

  it('lists only folders with a history file, newest first', () => {
    const home = newHome();
    record(home, 'a', '2030-01-02T00:00:00.000Z', [text('1', 'user', 'x')]).close();
    record(home, 'b', '2030-01-03T00:00:00.000Z', [text('1', 'user', 'x')]).close();
    mkdirSync(join(home, 'sessions', 'empty'));
    writeFileSync(join(home, 'sessions', 'a.json'), '{}');
    expect(sessionFilesByActivity(home).map((file) => file.sessionId)).toEqual(['b', 'a']);
    expect(sessionFilesByActivity(join(home, 'none'))).toEqual([]);
  });
});

describe('forEachLineBlock', () => {
  it('hands over whole lines only, whatever the block size, and never a cut last line', () => {
    const home = newHome();
    const path = join(home, 'lines.jsonl');
    const lines = ['a', 'ü'.repeat(40), '', 'b'.repeat(100), 'c'];
    writeFileSync(path, `${lines.join('\n')}\ncut`);
    for (const size of [1, 2, 3, 7, 64, 1 << 20]) {
      const seen: string[] = [];
      forEachLineBlock(path, (block) => (seen.push(...block.split('\n')), true), size);
      expect(seen).toEqual(lines);
    }
    const first: string[] = [];
    forEachLineBlock(path, (block) => (first.push(block), false), 2);
    expect(first).toEqual(['a']);
  });
});

describe('searchSnippet', () => {
  it('is one line of bounded length around the first match, cut with …, control characters gone', () => {
    const body = `${'a'.repeat(200)} Needle\n\tin\u001b[31m the ${'b'.repeat(200)}`;
    const snippet = searchSnippet(body, [anyCase('needle'), anyCase('the')]);
    expect(snippet.text.length).toBeLessThanOrEqual(122);
    expect(snippet.text).not.toMatch(/[\n\t\u001b]/);
    expect(snippet.text.startsWith('…')).toBe(true);
    expect(snippet.text.endsWith('…')).toBe(true);
    expect(snippet.matches.map((match) => snippet.text.slice(match.start, match.start + match.length))).toEqual(['Needle', 'the']);
    expect(searchSnippet('short needle', [anyCase('needle')])).toEqual({ text: 'short needle', matches: [{ start: 6, length: 6 }] });
    expect(searchSnippet('aaaa', [anyCase('aa')]).matches).toEqual([{ start: 0, length: 4 }]);
  });
});
