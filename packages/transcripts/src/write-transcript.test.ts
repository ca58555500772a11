import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readTranscript } from './read-transcript.js';
import { fixture } from './test-support/fixture-paths.js';
import { writeTranscript } from './write-transcript.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('writeTranscript', () => {
  it('writes the transcript and leaves no temporary file behind', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ollm-transcripts-'));
    folders.push(folder);
    const transcript = await readTranscript(fixture('formats/openai-wrapped.json'));
    const target = join(folder, 'out.json');
    await writeTranscript(target, transcript);
    expect(readdirSync(folder)).toEqual(['out.json']);
    expect(JSON.parse(readFileSync(target, 'utf8'))).toEqual(JSON.parse(readFileSync(fixture('formats/openai-wrapped.json'), 'utf8')));
    expect((await readTranscript(target)).conversations).toEqual(transcript.conversations);
  });

  it('creates nothing when the folder does not exist', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'ollm-transcripts-'));
    folders.push(folder);
    const transcript = await readTranscript(fixture('formats/openai.json'));
    await expect(writeTranscript(join(folder, 'missing', 'out.json'), transcript)).rejects.toThrow(/ENOENT/);
    expect(readdirSync(folder)).toEqual([]);
  });
});
