import { readFileSync, statSync } from 'node:fs';
import { parseTranscriptBytes } from './parse-transcript-bytes.js';
import type { Transcript, TranscriptFormat } from './transcript.js';
import { checkTranscriptSize, transcriptTooLarge } from './validation/transcript-size.js';

/**
 * Reads a transcript file (strict UTF-8), detecting its format unless one is given. A file over
 * MAX_TRANSCRIPT_BYTES is refused by its size before it is read. The file is read in one blocking
 * call: a command reads its transcript before doing anything else, and node's promise API would
 * read it in 512 KiB pieces, each a round trip through the thread pool (3-4 ms of a 1 MB file).
 */
export async function readTranscript(path: string, options: { format?: TranscriptFormat } = {}): Promise<Transcript> {
  checkTranscriptSize(path, statSync(path).size);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    // The file grew past 2 GiB after it was measured.
    if ((error as NodeJS.ErrnoException).code === 'ERR_FS_FILE_TOO_LARGE') throw transcriptTooLarge(path, statSync(path).size, error);
    throw error;
  }
  return parseTranscriptBytes(bytes, { file: path, ...(options.format === undefined ? {} : { format: options.format }) });
}
