import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repositoryRoot } from './fixture-paths.js';
import { runOllm, temporaryFolder } from './run-ollm.js';
import { testRegistry } from './test-providers.js';

type Json = unknown;
type Messages = (document: Json) => Record<string, Json>[][];

const list = (value: Json): Record<string, Json>[] => value as Record<string, Json>[];
const field = (key: string) => (document: Json) => [list((document as Record<string, Json>)[key])];

/** One fixture per format, and where its messages are. */
const samples: [string, string, Messages][] = [
  ['openai', 'fixtures/formats/openai.json', (document) => [list(document)]],
  ['openai', 'fixtures/formats/openai-wrapped.json', field('messages')],
  ['anthropic', 'fixtures/formats/anthropic.json', field('messages')],
  ['ollama', 'fixtures/formats/ollama.json', field('messages')],
  ['gptme', 'fixtures/formats/gptme/conversation.jsonl', (document) => [list(document)]],
  ['swe-agent', 'fixtures/swe-agent-django/django__django-11999.traj.json', field('messages')],
  ['tau-bench', 'fixtures/tau-bench-airline/gpt-4o-airline.sample.json', (document) => list(document).map((entry) => list(entry.traj))],
  ['swe-agent-classic', 'packages/transcripts/fixtures/swe-agent-classic/calc__mean-empty.traj', field('history')],
  ['ollm-session', 'packages/transcripts/fixtures/ollm-session/fixture-session.json', field('messages')],
];
const present = samples.filter(([, file]) => existsSync(join(repositoryRoot, file)));

/** Keys that name Object.prototype members; JSON.parse makes them own fields, `object[key] = value` does not. */
const HOSTILE_TEXT = '{"__proto__": {"polluted": true}, "constructor": "built", "toString": "text", "hasOwnProperty": {"__proto__": null, "constructor": [1]}}';
const hostile = (): Record<string, Json> => JSON.parse(HOSTILE_TEXT) as Record<string, Json>;
const HOSTILE_KEYS = Object.keys(hostile());

/** Adds the hostile fields to `object` and to every object inside it (spread keeps `__proto__` an own field). */
function withHostileFields(value: Json): Json {
  if (Array.isArray(value)) return value.map(withHostileFields);
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.fromEntries(Object.entries(value).map(([key, member]) => [key, withHostileFields(member)]));
  return { ...copy, ...hostile() };
}

function parseDocument(text: string, jsonl: boolean): Json {
  return jsonl
    ? text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Json)
    : (JSON.parse(text) as Json);
}

function writeDocument(document: Json, jsonl: boolean): string {
  return jsonl ? (document as Json[]).map((line) => `${JSON.stringify(line)}\n`).join('') : `${JSON.stringify(document, null, 2)}\n`;
}

/** The fixture with hostile fields on the document, on every message and inside every message. */
function hostileCopy(file: string, messagesOf: Messages): { text: string; jsonl: boolean } {
  const jsonl = file.endsWith('.jsonl');
  const document = parseDocument(readFileSync(join(repositoryRoot, file), 'utf8'), jsonl);
  for (const messages of messagesOf(document)) messages.forEach((message, index) => (messages[index] = withHostileFields(message) as Record<string, Json>));
  const top = jsonl || Array.isArray(document) ? document : { ...(document as Record<string, Json>), ...hostile() };
  return { text: writeDocument(top, jsonl), jsonl };
}

/** The hostile fields a value carries as its own, as JSON (so `{"__proto__": …}` is seen). */
const ownHostileFields = (value: Record<string, Json>): string =>
  JSON.stringify(Object.fromEntries(HOSTILE_KEYS.filter((key) => Object.hasOwn(value, key)).map((key) => [key, value[key]])));

describe.skipIf(present.length === 0)('fields named like Object.prototype members survive read -> compact -> write', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  beforeEach(() => {
    folder = temporaryFolder();
    env = { OLLM_HOME: join(folder.path, 'home'), HOME: folder.path };
  });
  afterEach(() => folder.remove());

  // `identity` from the test registry; the built-in providers (trim) as the binary loads them.
  const compact = (input: string, args: string[]) =>
    args.includes('identity')
      ? runOllm(['--no-plugins', 'compact', input, '--out', 'out', ...args], { cwd: folder.path, env, registry: testRegistry() })
      : runOllm(['compact', input, '--out', 'out', ...args], { cwd: folder.path, env });

  it.each(present)('%s (%s): unchanged messages are written back byte for byte', async (_format, file, messagesOf) => {
    const { text } = hostileCopy(file, messagesOf);
    writeFileSync(join(folder.path, 'in'), text);
    const run = await compact('in', ['--provider', 'identity']);
    expect(run.stderr).not.toMatch(/^ollm: /m);
    expect(run.code).toBe(0);
    expect(readFileSync(join(folder.path, 'out'), 'utf8')).toBe(text);
  });

  it.each(present)('%s (%s): messages a provider changed keep their fields too', async (_format, file, messagesOf) => {
    const { text, jsonl } = hostileCopy(file, messagesOf);
    writeFileSync(join(folder.path, 'in'), text);
    const run = await compact('in', ['--provider', 'trim', '--limit', '10%']);
    expect(run.stderr).not.toMatch(/^ollm: /m);
    expect(run.code).toBe(0);
    const written = messagesOf(parseDocument(readFileSync(join(folder.path, 'out'), 'utf8'), jsonl)).flat();
    const expected = ownHostileFields(hostile());
    // Every message written over its source (trim adds none) keeps the fields, with their values.
    expect(written.length).toBeGreaterThan(0);
    for (const message of written) expect({ role: message.role, fields: ownHostileFields(message) }).toEqual({ role: message.role, fields: expected });
  });
});

describe('gptme: a message is written with what was read', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  beforeEach(() => {
    folder = temporaryFolder();
  });
  afterEach(() => folder.remove());

  it('a line without a timestamp is written without one (none invented)', async () => {
    const text = [
      '{"role": "system", "content": "You are gptme.", "timestamp": "2025-05-12T09:14:02.118204"}',
      '{"role": "user", "content": "hello"}',
      '{"role": "assistant", "content": "hi", "timestamp": "2025-05-12T09:14:13.907781"}',
      '{"role": "user", "content": "thanks"}',
      '',
    ].join('\n');
    writeFileSync(join(folder.path, 'conversation.jsonl'), text);
    const run = await runOllm(['--no-plugins', 'compact', 'conversation.jsonl', '--provider', 'identity', '--out', 'out.jsonl'], {
      cwd: folder.path,
      env: { OLLM_HOME: join(folder.path, 'home') },
      registry: testRegistry(),
    });
    expect(run.code).toBe(0);
    expect(readFileSync(join(folder.path, 'out.jsonl'), 'utf8')).toBe(text);
  });
});
