import { readFile, stat } from 'node:fs/promises';
import { parseTranscriptBytes } from './parse-transcript-bytes.js';
import type { Transcript, TranscriptFormat } from './transcript.js';
import { checkTranscriptSize, transcriptTooLarge } from './validation/transcript-size.js';

/**
 * Reads a transcript file (strict UTF-8), detecting its format unless one is given. A file over
 * MAX_TRANSCRIPT_BYTES is refused by its size before it is read.
 */
export async function readTranscript(path: string, options: { format?: TranscriptFormat } = {}): Promise<Transcript> {
  checkTranscriptSize(path, (await stat(path)).size);
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    // The file grew past 2 GiB after it was measured.
    if ((error as NodeJS.ErrnoException).code === 'ERR_FS_FILE_TOO_LARGE') throw transcriptTooLarge(path, (await stat(path)).size, error);
    throw error;
  }
  return parseTranscriptBytes(bytes, { file: path, ...(options.format === undefined ? {} : { format: options.format }) });
}
