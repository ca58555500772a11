import { randomBytes } from 'node:crypto';
import { rename, rm, writeFile } from 'node:fs/promises';
import { serializeTranscript } from './serialize-transcript.js';
import type { Transcript } from './transcript.js';

/**
 * Writes a transcript in its own format. The text goes to a temporary file in the same folder
 * that is then renamed over `path`, so a crash never leaves a half-written transcript.
 */
export async function writeTranscript(path: string, transcript: Transcript): Promise<void> {
  const text = serializeTranscript(transcript);
  const temporary = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
