import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.js';
import { serializeTranscript } from './serialize-transcript.js';
import { filesIn, fixture, hasSharedFixtures, SHARED_FIXTURES } from './test-support/fixture-paths.js';

const realFixtures = [
  ...filesIn(fixture('swe-agent-django'), '.traj.json'),
  fixture('tau-bench-airline', 'gpt-4o-airline.sample.json'),
];
const handWritten = [
  'openai.json',
  'openai-wrapped.json',
  'anthropic.json',
  'ollama.json',
  'gptme/conversation.jsonl',
].map((name) => fixture('formats', name));
const shared = hasSharedFixtures
  ? [...filesIn(join(SHARED_FIXTURES, 'swe-agent-django'), '.traj.json'), join(SHARED_FIXTURES, 'tau-bench-airline', 'gpt-4o-airline.json')]
  : [];

function parseSource(path: string): unknown {
  const text = readFileSync(path, 'utf8');
  return path.endsWith('.jsonl') ? text.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line)) : JSON.parse(text);
}

function roundTrip(path: string): { source: unknown; written: unknown; text: string } {
  const text = readFileSync(path, 'utf8');
  const transcript = parseTranscript(text, { file: path });
  const serialized = serializeTranscript(transcript);
  const written = path.endsWith('.jsonl')
    ? serialized.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line))
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
