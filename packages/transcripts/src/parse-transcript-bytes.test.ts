import { readFileSync } from 'node:fs';
import { InvalidTranscriptError } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { parseTranscriptBytes } from './parse-transcript-bytes.js';
import { readTranscript } from './read-transcript.js';
import { serializeTranscript } from './serialize-transcript.js';
import { fixture } from './test-support/fixture-paths.js';

function errorOf(run: () => unknown): InvalidTranscriptError {
  try {
    run();
  } catch (error) {
    if (InvalidTranscriptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an InvalidTranscriptError');
}

describe('parseTranscriptBytes', () => {
  it('parses bytes as readTranscript parses the file, labelled as asked', async () => {
    const path = fixture('swe-agent-django', 'django__django-11999.traj.json');
    const fromBytes = parseTranscriptBytes(readFileSync(path), { file: '<stdin>' });
    const fromFile = await readTranscript(path);
    expect(fromBytes.file).toBe('<stdin>');
    expect(fromBytes.format).toBe(fromFile.format);
    expect(fromBytes.conversations).toEqual(fromFile.conversations);
    expect(serializeTranscript(fromBytes)).toBe(serializeTranscript(fromFile));
  });

  it('decodes strictly: bad UTF-8 is named by its byte offset under the label', () => {
    const error = errorOf(() => parseTranscriptBytes(readFileSync(fixture('invalid', 'not-utf8.json')), { file: '<stdin>' }));
    expect(error.message).toBe('<stdin>: byte 36: the file is not valid UTF-8');
  });

  it('names the line and column of malformed JSON under the label', () => {
    const error = errorOf(() => parseTranscriptBytes(Buffer.from('[\n  {"role": "user",\n'), { file: '<stdin>' }));
    expect(error.file).toBe('<stdin>');
    expect(error.position).toMatch(/^line \d+, column \d+$/);
  });
});
