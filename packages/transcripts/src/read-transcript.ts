import { readFile } from 'node:fs/promises';
import { parseTranscript } from './parse-transcript.js';
import type { Transcript, TranscriptFormat } from './transcript.js';
import { decodeUtf8 } from './validation/decode-utf8.js';

/** Reads a transcript file (strict UTF-8), detecting its format unless one is given. */
export async function readTranscript(path: string, options: { format?: TranscriptFormat } = {}): Promise<Transcript> {
  const text = decodeUtf8(await readFile(path), path);
  return parseTranscript(text, { file: path, ...(options.format === undefined ? {} : { format: options.format }) });
}
