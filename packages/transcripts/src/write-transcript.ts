import { writeFileAtomic } from '@ollm/core';
import { serializeTranscript } from './serialize-transcript.js';
import type { Transcript } from './transcript.js';

/**
 * Writes a transcript in its own format. The text goes to a temporary file in the same folder
 * that is then renamed over `path`, so a crash never leaves a half-written transcript; on failure
 * the temporary file is removed and the error names `path` (see `writeFileAtomic`). A folder
 * that does not exist is an error (ENOENT), not created.
 */
export async function writeTranscript(path: string, transcript: Transcript): Promise<void> {
  writeFileAtomic(path, serializeTranscript(transcript), { createFolders: false });
}
