import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.js';
import { serializeTranscript } from './serialize-transcript.js';
import { filesIn, fixture, hasSharedFixtures, packageFixture, SHARED_FIXTURES } from './test-support/fixture-paths.js';

const realFixtures = [
  ...filesIn(fixture('swe-agent-django'), '.traj.json'),
  fixture('tau-bench-airline', 'gpt-4o-airline.sample.json'),
  // Written by ollm's own session exporter; and a classic SWE-agent trajectory in Python's json.dumps layout.
  packageFixture('ollm-session', 'fixture-session.json'),
  packageFixture('swe-agent-classic', 'calc__mean-empty.traj'),
];
const handWritten = ['openai.json', 'openai-wrapped.json', 'anthropic.json', 'ollama.json', 'gptme/conversation.jsonl'].map((name) => fixture('formats', name));
const shared = hasSharedFixtures
  ? [...filesIn(join(SHARED_FIXTURES, 'swe-agent-django'), '.traj.json'), join(SHARED_FIXTURES, 'tau-bench-airline', 'gpt-4o-airline.json')]
  : [];

function parseSource(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  return path.endsWith('.jsonl')
    ? text
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line))
    : JSON.parse(text);
}

function roundTrip(path: string): { source: unknown; written: unknown; text: string } {
  const text = readFileSync(path, 'utf8');
  const transcript = parseTranscript(text, { file: path });
  const serialized = serializeTranscript(transcript);
  const written = path.endsWith('.jsonl')
    ? serialized
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line))
    : JSON.parse(serialized);
  return { source: parseSource(path), written, text: serialized };
}

describe('reading then writing a file in its own format', () => {
  it.each([...realFixtures, ...handWritten])('gives JSON deep-equal to the source: %s', (path) => {
    const { source, written } = roundTrip(path);
    expect(written).toEqual(source);
  });

  it.each(realFixtures)('keeps the source layout (indentation, key order) byte for byte: %s', (path) => {
    const { text } = roundTrip(path);
    // Python writes floats like 0.0 that JSON.stringify writes as 0; compare after normalising them.
    const normalise = (value: string): string => value.replace(/(\d)\.0\b/g, '$1');
    expect(normalise(text)).toBe(normalise(readFileSync(path, 'utf8')));
  });

  it.runIf(hasSharedFixtures).each(shared)('round-trips the shared fixture %s', (path) => {
    const { source, written } = roundTrip(path);
    expect(written).toEqual(source);
  });
});

describe('fields SDK dumps write as null or empty', () => {
  it.each([
    [
      'openai',
      [
        { role: 'system', content: [{ type: 'text', text: 'Policy.', cache_control: { type: 'ephemeral' } }], name: null },
        { role: 'user', content: 'Hi', tool_calls: null, function_call: null, reasoning_content: null },
        { role: 'assistant', content: 'Hello', tool_calls: [], refusal: null, audio: null },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: 'not json' } }] },
        { role: 'tool', tool_call_id: 'c1', content: null, name: null },
        { role: 'assistant', content: '', tool_calls: [{ id: 'c2', function: { name: 'g', arguments: { y: [1, 2] } } }] },
        { role: 'tool', tool_call_id: 'c2', content: 'done' },
      ],
    ],
    [
      'ollama',
      {
        model: 'llama3.2',
        keep_alive: '5m',
        messages: [
          { role: 'user', content: 'Hi', images: null, tool_calls: null, thinking: null },
          { role: 'assistant', content: null, tool_calls: [{ function: { name: 'f', arguments: '{"x":1}' } }] },
          { role: 'tool', content: 'ok', tool_name: null },
        ],
      },
    ],
  ])('%s', (format, document) => {
    const transcript = parseTranscript(JSON.stringify(document), { file: `${format}.json` });
    expect(transcript.format).toBe(format);
    expect(JSON.parse(serializeTranscript(transcript))).toEqual(document);
  });
});

describe('JSON Lines layout', () => {
  it('writes the gptme sample back byte for byte (Python separators and escapes)', () => {
    const path = fixture('formats', 'gptme', 'conversation.jsonl');
    expect(roundTrip(path).text).toBe(readFileSync(path, 'utf8'));
  });

  it('keeps compact lines compact and drops a byte order mark', () => {
    const text = '{"role":"user","content":"héllo","timestamp":"2025-01-01T00:00:00"}\n';
    const transcript = parseTranscript(`\uFEFF${text}`, { file: 'compact.jsonl' });
    expect(serializeTranscript(transcript)).toBe(text);
  });
});
