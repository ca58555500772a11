import { mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InvalidTranscriptError, nestsDeeperThan } from '@ollm/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_JSON_NESTING } from './json/json-nesting.js';
import { orderLike } from './json/order-like.js';
import { sameJson } from './json/same-json.js';
import { parseTranscript } from './parse-transcript.js';
import { readTranscript } from './read-transcript.js';
import { serializeTranscript } from './serialize-transcript.js';
import { withConversationMessages } from './with-conversation-messages.js';
import { writeTranscript } from './write-transcript.js';

async function errorOf(run: () => unknown): Promise<InvalidTranscriptError> {
  try {
    await run();
  } catch (error) {
    if (InvalidTranscriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidTranscriptError');
}

const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);

describe('nesting: bounded, iterative, refused past MAX_JSON_NESTING with the position', () => {
  it.each([5_000, 100_000])('a value %i deep is refused at the bracket that opens level 1,001', async (depth) => {
    const text = `[{"role": "user", "content": "hi", "extra": ${nested(depth)}}]`;
    const error = await errorOf(() => parseTranscript(text, { file: 'deep.json' }));
    // Level 1 is the array, 2 the message: level 1,001 is the value's 999th bracket.
    expect(error.position).toBe(`line 1, column ${text.indexOf('[[') + 999}`);
    expect(error.reason).toBe('JSON nested deeper than 1,000 levels (the limit for a transcript)');
  });

  it('reads and writes a file nested exactly 1,000 levels, in every layout', () => {
    // Levels: the document, `messages`, the message; the value brings the rest to 1,000.
    const value = '{"a": '.repeat(997) + '1' + '}'.repeat(997);
    const spaced = `{"messages": [{"role": "user", "content": "hi", "extra": ${value}}]}\n`;
    expect(serializeTranscript(parseTranscript(spaced, { file: 'spaced.json' }))).toBe(spaced);
    const indented = `${JSON.stringify(JSON.parse(spaced), null, 2)}\n`;
    expect(serializeTranscript(parseTranscript(indented, { file: 'indented.json' }))).toBe(indented);
  });

  it('checks each JSONL line on its own, naming its line', async () => {
    const line = (extra: string) => `{"role": "user", "content": "a", "timestamp": "2025-01-01T00:00:00"${extra}}`;
    const text = [line(''), line(`, "metadata": ${nested(MAX_JSON_NESTING - 1)}`), line(`, "metadata": ${nested(MAX_JSON_NESTING)}`)].join('\n');
    const error = await errorOf(() => parseTranscript(text, { file: 'conversation.jsonl' }));
    expect(error.position).toMatch(/^line 3, column \d+$/);
  });

  it('finds the syntax error of malformed text nested 100,000 deep', async () => {
    const error = await errorOf(() => parseTranscript(`[\n${'['.repeat(100_000)}}`, { file: 'broken.json' }));
    expect(error.position).toBe('line 2, column 100001');
    expect(error.reason).toBe('malformed JSON: unexpected "}"');
  });

  it('nestsDeeperThan and sameJson walk 100,000 levels without recursing', () => {
    const deep = JSON.parse(nested(100_000)) as unknown;
    expect(nestsDeeperThan(deep, MAX_JSON_NESTING)).toBe(true);
    expect(nestsDeeperThan(JSON.parse(nested(MAX_JSON_NESTING)), MAX_JSON_NESTING)).toBe(false);
    expect(sameJson(deep, JSON.parse(nested(100_000)))).toBe(true);
    expect(sameJson(deep, JSON.parse(nested(99_999)))).toBe(false);
  });
});

describe('fields named like Object.prototype members are data', () => {
  const hostile = '{"__proto__": {"polluted": true}, "constructor": "built", "toString": "text", "hasOwnProperty": 1}';

  it('orderLike keeps them as own fields, in the template order', () => {
    const value = JSON.parse(`{"b": 2, ${hostile.slice(1, -1)}, "a": 1}`) as Record<string, unknown>;
    const template = JSON.parse('{"a": 0, "__proto__": 0, "b": 0}') as unknown;
    const ordered = orderLike(value, template);
    expect(JSON.stringify(ordered)).toBe(`{"a":1,"__proto__":{"polluted":true},"b":2,"constructor":"built","toString":"text","hasOwnProperty":1}`);
    expect(Object.getPrototypeOf(ordered)).toBe(Object.prototype);
    // A key the template has and the value lacks is not brought back from Object.prototype.
    expect(JSON.stringify(orderLike({ a: 1 }, JSON.parse('{"constructor": 1, "__proto__": 2, "a": 0}')))).toBe('{"a":1}');
  });

  it.each([
    ['openai', `[{"role": "user", "content": "hi", "meta": ${hostile}, ${hostile.slice(1, -1)}}]`, 2],
    [
      'anthropic',
      `{"system": "s", "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}], "meta": ${hostile}, ${hostile.slice(1, -1)}}]}`,
      2,
    ],
    ['ollama', `{"options": {}, "messages": [{"role": "user", "content": "hi", ${hostile.slice(1, -1)}}]}`, 1],
  ])('%s: a message rewritten by a provider keeps them', (_format, text, times) => {
    const transcript = parseTranscript(text, { file: 'chat.json' });
    const [message] = transcript.conversations[0]!.messages.filter((candidate) => candidate.role === 'user');
    const changed = withConversationMessages(
      transcript,
      0,
      transcript.conversations[0]!.messages.map((candidate) =>
        candidate === message ? { ...candidate, parts: [{ type: 'text', text: 'hello' }] } : candidate,
      ),
    );
    const written = serializeTranscript(changed).replaceAll('": ', '":').replaceAll(', "', ',"');
    expect(written).toContain('hello');
    // On the message, and inside a field holding an object.
    const fields = '"__proto__":{"polluted":true},"constructor":"built","toString":"text","hasOwnProperty":1';
    expect(written.split(fields).length - 1).toBe(times);
  });
});

describe('files: size refused before reading; write errors name the path given', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'ollm-transcripts-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it.each([
    [600 * 2 ** 20, '600 MiB is over the 512 MiB limit for one transcript'],
    [3 * 2 ** 30, '3 GiB is over the 512 MiB limit for one transcript'],
    [2 ** 29, '536,870,912 bytes is over the 512 MiB limit for one transcript'],
  ])('a sparse file of %i bytes: %s', async (size, reason) => {
    const path = join(folder, 'big.json');
    writeFileSync(path, '');
    truncateSync(path, size);
    const error = await errorOf(() => readTranscript(path));
    expect({ file: error.file, position: error.position, reason: error.reason }).toEqual({ file: path, position: 'file size', reason });
  });

  it('a failed write names the path, keeps the code and removes the temporary file', async () => {
    const transcript = parseTranscript('[{"role": "user", "content": "hi"}]', { file: 'chat.json' });
    const target = join(folder, 'results');
    mkdirSync(target);
    const error = (await writeTranscript(target, transcript).then(
      () => undefined,
      (caught: unknown) => caught,
    )) as NodeJS.ErrnoException;
    expect(error.code).toBe('EISDIR');
    expect(error.path).toBe(target);
    expect(error.message).toBe(`EISDIR: cannot write ${target}: illegal operation on a directory`);
    expect(readdirSync(folder)).toEqual(['results']);
    const missing = join(folder, 'missing', 'out.json');
    await expect(writeTranscript(missing, transcript)).rejects.toMatchObject({ code: 'ENOENT', path: missing, message: expect.not.stringContaining('.tmp') });
  });
});

describe('gptme: timestamps are written as read, none invented', () => {
  const text = [
    '{"role": "system", "content": "You are gptme.", "timestamp": "2025-05-12T09:14:02"}',
    '{"role": "user", "content": "hello"}',
    '{"role": "assistant", "content": "hi", "timestamp": "2025-05-12T09:14:13"}',
    '{"role": "user", "content": "thanks"}',
    '',
  ].join('\n');

  it('a line without one is written without one', () => {
    expect(serializeTranscript(parseTranscript(text, { file: 'conversation.jsonl' }))).toBe(text);
  });

  it("a new message takes its predecessor's timestamp, and none when no earlier message has one", () => {
    const transcript = parseTranscript(text, { file: 'conversation.jsonl' });
    const messages = transcript.conversations[0]!.messages;
    const summary = (id: string) => ({ id, role: 'assistant' as const, parts: [{ type: 'text' as const, text: id }] });
    const written = serializeTranscript(withConversationMessages(transcript, 0, [summary('first'), ...messages.slice(0, 3), summary('later')]))
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { content: string; timestamp?: string });
    expect(written.map((line) => [line.content, line.timestamp])).toEqual([
      ['first', undefined],
      ['You are gptme.', '2025-05-12T09:14:02'],
      ['hello', undefined],
      ['hi', '2025-05-12T09:14:13'],
      ['later', '2025-05-12T09:14:13'],
    ]);
  });
});

describe('many tool calls in one message: each result pairs as before', () => {
  it('ollama: a named result answers the earliest unanswered call of that name, an unnamed one the earliest of all', () => {
    const call = (name: string) => ({ function: { name, arguments: {} } });
    const result = (name?: string) => ({ role: 'tool', content: name ?? 'any', ...(name ? { tool_name: name } : {}) });
    const text = JSON.stringify({
      options: {},
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: '', tool_calls: [call('a'), call('b'), call('a'), call('b')] },
        result('b'),
        result(),
        result('a'),
        result(),
      ],
    });
    const transcript = parseTranscript(text, { file: 'chat.json' });
    const answered = transcript.conversations[0]!.messages.flatMap((message) =>
      message.parts.flatMap((part) => (part.type === 'tool-result' ? [part.callId] : [])),
    );
    expect(answered).toEqual(['ollama-1-1', 'ollama-1-0', 'ollama-1-2', 'ollama-1-3']);
    expect(JSON.parse(serializeTranscript(transcript))).toEqual(JSON.parse(text));
  });

  it('openai: 10,000 calls in one message are written back over their own source calls', () => {
    const calls = Array.from({ length: 10_000 }, (_, index) => ({
      id: `c${index}`,
      type: 'function',
      function: { name: 'f', arguments: `{"n": ${index}}` },
      extra: index,
    }));
    const results = calls.map((call) => ({ role: 'tool', tool_call_id: call.id, content: 'ok' }));
    const text = JSON.stringify([{ role: 'user', content: 'go' }, { role: 'assistant', content: null, tool_calls: calls.toReversed() }, ...results]);
    expect(serializeTranscript(parseTranscript(text, { file: 'chat.json' }))).toBe(text);
  });
});
