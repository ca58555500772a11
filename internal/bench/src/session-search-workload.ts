import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Message } from '@ollm/core';
import { HISTORY_FILE, listSessions, searchSessions } from '@ollm/runtime';
import { median, timeSync } from './measure.js';

/**
 * `ollm sessions search` over a large `$OLLM_HOME`: `sessions` sessions of `messages` messages
 * each (a coding chat's mix: user and assistant text, tool calls, tool results of a few hundred
 * bytes to a few KB), written in SessionHistory's own line format into a temporary home that is
 * removed after. Standalone (not part of `pnpm bench`):
 *
 *   pnpm --filter @ollm/runtime build && pnpm --filter @ollm/bench exec tsc -p tsconfig.build.json
 *   node internal/bench/dist/session-search-workload.js [--sessions 2000] [--messages 200] [--runs 5]
 */
export interface SessionSearchCase {
  readonly name: string;
  readonly query: string;
  readonly limit: number;
  readonly hits: number;
  readonly truncated: boolean;
  readonly sessionsSearched: number;
  /** Median of the runs, warm page cache. */
  readonly ms: number;
}

export interface SessionSearchReport {
  readonly sessions: number;
  readonly messagesPerSession: number;
  readonly homeMegabytes: number;
  /** `listSessions` (every file read and parsed whole), for scale. */
  readonly listSessionsMs: number;
  readonly cases: readonly SessionSearchCase[];
}

const WORDS = (
  'the a to of and in is it that for on with as this be file config test function error return value type import ' +
  'export const let module build run path read write update change fix bug add remove check output input result ' +
  'server client request response cache token window context message session model provider tool call'
).split(' ');

/** Deterministic text: the same home on every run. */
function words(seed: number, count: number): string {
  let state = seed * 2654435761;
  const out: string[] = [];
  for (let index = 0; index < count; index += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out.push(WORDS[state % WORDS.length]!);
  }
  return out.join(' ');
}

/** Message `index` of session `session`: a user turn, a tool call, its result, a reply, in turn. */
function messageOf(session: number, index: number): Message {
  const seed = session * 100_003 + index;
  const id = `m${index}`;
  switch (index % 4) {
    case 0:
      return { id, role: 'user', parts: [{ type: 'text', text: words(seed, 30) }] };
    case 1:
      return {
        id,
        role: 'assistant',
        parts: [{ type: 'tool-call', callId: `c${index}`, name: 'read_file', input: { path: `src/${words(seed, 2).replace(' ', '/')}.ts` } }],
      };
    case 2:
      return { id, role: 'tool', parts: [{ type: 'tool-result', callId: `c${index - 1}`, output: words(seed, 100 + (seed % 400)) }] };
    default:
      return { id, role: 'assistant', parts: [{ type: 'text', text: words(seed, 60) }] };
  }
}

/** Writes `sessions` sessions of `messages` messages under `home`, newest last. */
export function writeSearchHome(home: string, sessions: number, messages: number): void {
  const base = Date.parse('2030-01-01T00:00:00.000Z');
  for (let session = 0; session < sessions; session += 1) {
    const sessionId = `bench-${String(session).padStart(5, '0')}`;
    mkdirSync(join(home, 'sessions', sessionId), { recursive: true });
    const descriptor = openSync(join(home, 'sessions', sessionId, HISTORY_FILE), 'w');
    try {
      const start = base + session * 3_600_000;
      const lines = [JSON.stringify({ type: 'session', sessionId, startTime: new Date(start).toISOString(), model: 'fake-llama:8b' })];
      for (let index = 0; index < messages; index += 1) {
        lines.push(JSON.stringify({ type: 'message', message: messageOf(session, index), tokens: 50, at: new Date(start + index * 1000).toISOString() }));
      }
      writeSync(descriptor, `${lines.join('\n')}\n`);
    } finally {
      closeSync(descriptor);
    }
  }
}

function folderMegabytes(home: string, sessions: number): number {
  let bytes = 0;
  for (let session = 0; session < sessions; session += 1)
    bytes += statSync(join(home, 'sessions', `bench-${String(session).padStart(5, '0')}`, HISTORY_FILE)).size;
  return bytes / 2 ** 20;
}

export function measureSessionSearch(sessions: number, messages: number, runs: number): SessionSearchReport {
  const home = mkdtempSync(join(tmpdir(), 'ollm-bench-search-'));
  try {
    writeSearchHome(home, sessions, messages);
    const cases: [string, string, number][] = [
      ['no hit: every line of every session checked', 'kubernetes', 50],
      ['no hit, two words (one common)', 'config kubernetes', 50],
      ['a word in most messages, stops at the limit', 'config', 50],
      ['a word in most messages, limit 10,000', 'config', 10_000],
    ];
    const results = cases.map(([name, query, limit]): SessionSearchCase => {
      let result = searchSessions(home, query, { limit });
      const times = Array.from({ length: runs }, () => timeSync(() => (result = searchSessions(home, query, { limit }))));
      return { name, query, limit, hits: result.hits.length, truncated: result.truncated, sessionsSearched: result.sessionsSearched, ms: median(times) };
    });
    listSessions(home);
    const listSessionsMs = median(Array.from({ length: Math.min(runs, 3) }, () => timeSync(() => listSessions(home))));
    return { sessions, messagesPerSession: messages, homeMegabytes: folderMegabytes(home, sessions), listSessionsMs, cases: results };
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

function render(report: SessionSearchReport): string {
  const lines = [
    `${report.sessions.toLocaleString('en-US')} sessions x ${report.messagesPerSession} messages (${report.homeMegabytes.toFixed(0)} MB of history.jsonl), warm cache, median:`,
    '',
    '| query | limit | hits | sessions read | ms | MB/s |',
    '| --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const run of report.cases) {
    const megabytes = (report.homeMegabytes * run.sessionsSearched) / report.sessions;
    lines.push(
      `| \`${run.query}\` (${run.name}) | ${run.limit} | ${run.hits}${run.truncated ? '+' : ''} | ${run.sessionsSearched} | ${run.ms.toFixed(0)} | ${((megabytes * 1000) / run.ms).toFixed(0)} |`,
    );
  }
  lines.push('', `listSessions (every file parsed whole): ${report.listSessionsMs.toFixed(0)} ms`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: { sessions: { type: 'string' }, messages: { type: 'string' }, runs: { type: 'string' }, json: { type: 'boolean' } },
  });
  const report = measureSessionSearch(Number(values.sessions ?? 2000), Number(values.messages ?? 200), Number(values.runs ?? 5));
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : `${render(report)}\n`);
}
