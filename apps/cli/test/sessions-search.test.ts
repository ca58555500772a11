import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '@ollm/core';
import { SessionHistory } from '@ollm/runtime';
import { runOllm, temporaryFolder } from './run-ollm.js';

// The sessions' own clocks (one second per entry): the output shows these times whatever day the test runs on.
function ticking(start: string): () => Date {
  let time = Date.parse(start);
  return () => new Date((time += 1000) - 1000);
}

const older = '20261129-101500-aaaa';
const newer = '20261130-061702-3f2a';
const secret = 'sk-cli-search-0123456789';

const messages: Message[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: `read the config; my key is ${secret}` }] },
  { id: 'a1', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c1', name: 'read_file', input: { path: 'ollm.config.json' } }] },
  { id: 't1', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: '{"model":"x"}' }] },
  { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'The model in the Config is x.' }] },
];

describe('ollm sessions search', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeEach(() => {
    folder = temporaryFolder();
    const home = join(folder.path, 'home');
    env = { OLLM_HOME: home };
    const first = new SessionHistory({ home, sessionId: older, model: 'fake-llama:8b', clock: ticking('2026-11-29T10:15:00.000Z') });
    first.append({ id: 'o1', role: 'user', parts: [{ type: 'text', text: 'where is the config kept?' }] });
    first.close();
    const second = new SessionHistory({ home, sessionId: newer, model: 'fake-llama:8b', secrets: [secret], clock: ticking('2026-11-30T06:17:02.000Z') });
    for (const message of messages) second.append(message);
    second.appendGoal({
      description: 'Document the config file',
      checkpoints: [{ description: 'read it', status: 'completed' }],
      decisions: [],
      artifacts: [{ action: 'modified', path: 'docs/config.md' }],
    });
    second.close();
  });
  afterEach(() => folder.remove());

  const ollm = (args: string[], options: { env?: Record<string, string> } = {}) => runOllm(args, { env: { ...env, ...options.env }, cwd: folder.path });

  it('prints the hits grouped by session, newest first, one line each', async () => {
    const found = await ollm(['sessions', 'search', 'CONFIG']);
    expect(found.code).toBe(0);
    expect(found.stderr).toBe('');
    expect(found.stdout).toBe(
      [
        `${newer} (started 2026-11-30 06:17, fake-llama:8b)`,
        '  #1  user                 2026-11-30 06:17  read the config; my key is [redacted]',
        '  #2  assistant tool call  2026-11-30 06:17  read_file {"path":"ollm.config.json"}',
        '  #4  assistant            2026-11-30 06:17  The model in the Config is x.',
        '      goal                 2026-11-30 06:17  Document the config file',
        '',
        `${older} (started 2026-11-29 10:15, fake-llama:8b)`,
        '  #1  user                 2026-11-29 10:15  where is the config kept?',
        '',
        '5 hits in 2 sessions. Read one in full: ollm sessions show ID',
        '',
      ].join('\n'),
    );
  });

  it('highlights the matches when colour is on', async () => {
    const found = await ollm(['sessions', 'search', 'model', 'x', '--session', newer], { env: { FORCE_COLOR: '1' } });
    expect(found.stdout).toContain('The \u001b[1m\u001b[31mmodel\u001b[39m\u001b[22m in the Config is \u001b[1m\u001b[31mx\u001b[39m\u001b[22m.');
  });

  it('prints JSON with --json, narrows with --session and stops at --limit', async () => {
    const json = JSON.parse((await ollm(['sessions', 'search', 'config', '--json', '--limit', '2'])).stdout) as {
      terms: string[];
      hits: Record<string, unknown>[];
      truncated: boolean;
      sessionsSearched: number;
    };
    expect(json.terms).toEqual(['config']);
    expect(json.truncated).toBe(true);
    expect(json.sessionsSearched).toBe(1);
    expect(json.hits).toEqual([
      {
        sessionId: newer,
        sessionStart: '2026-11-30T06:17:02.000Z',
        model: 'fake-llama:8b',
        source: 'message',
        messageIndex: 0,
        role: 'user',
        field: 'text',
        at: '2026-11-30T06:17:03.000Z',
        snippet: { text: 'read the config; my key is [redacted]', matches: [{ start: 9, length: 6 }] },
      },
      expect.objectContaining({ messageIndex: 1, role: 'assistant', field: 'tool-call' }),
    ]);
    const limited = await ollm(['sessions', 'search', 'config', '--limit', '1']);
    expect(limited.stdout).toContain('1 hit in 1 session; more exist: these are the first 1 (--limit N shows more, --session ID searches one session).');
    const one = JSON.parse((await ollm(['sessions', 'search', 'config', '--session', older, '--json'])).stdout) as { hits: { sessionId: string }[] };
    expect(one.hits.map((hit) => hit.sessionId)).toEqual([older]);
    const goal = JSON.parse((await ollm(['sessions', 'search', 'docs/config.md', '--json'])).stdout) as { hits: Record<string, unknown>[] };
    expect(goal.hits).toEqual([expect.objectContaining({ source: 'goal', field: 'artifact', role: null, messageIndex: 4 })]);
  });

  it('says so when nothing matches (exit 0), and never finds a redacted secret', async () => {
    const none = await ollm(['sessions', 'search', 'kubernetes', 'helm']);
    expect(none.code).toBe(0);
    expect(none.stdout).toMatch(/^No message or goal holds "kubernetes" and "helm" \(2 sessions searched under .+\)\.\n$/);
    expect((await ollm(['sessions', 'search', secret])).stdout).toMatch(/^No message or goal holds/);
    expect(JSON.parse((await ollm(['sessions', 'search', 'nothing', '--json'])).stdout)).toEqual({
      terms: ['nothing'],
      hits: [],
      truncated: false,
      sessionsSearched: 2,
    });
  });

  it('refuses an empty query, a bad --limit and an unknown --session with exit 2', async () => {
    const missing = await ollm(['sessions', 'search']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument 'text'/);
    const empty = await ollm(['sessions', 'search', '  ']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe('ollm: Nothing to search for: give some text (ollm sessions search TEXT).\n');
    for (const limit of ['0', '-3', 'ten', '1.5']) {
      const bad = await ollm(['sessions', 'search', 'config', '--limit', limit]);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe(`ollm: Invalid --limit "${limit}": use a whole number above 0.\n`);
    }
    const unknown = await ollm(['sessions', 'search', 'config', '--session', 'nope']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^ollm: No session "nope" under .+ \(see `ollm sessions list`\)\.\n$/);
  });

  it('is in the help of ollm sessions, with examples', async () => {
    const help = await ollm(['sessions', '--help']);
    expect(help.stdout).toMatch(/search \[options\] <text\.\.\.>/);
    expect(help.stdout).toContain('$ ollm sessions search config read');
  });
});
