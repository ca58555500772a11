import { parseTranscript, type ParseTranscriptOptions } from './parse-transcript.js';
import type { Transcript } from './transcript.js';
import { decodeUtf8 } from './validation/decode-utf8.js';
import { checkTranscriptSize } from './validation/transcript-size.js';

/**
 * Parses a transcript from its bytes exactly as `readTranscript` parses a file's: refused over
 * MAX_TRANSCRIPT_BYTES, strict UTF-8 (bad bytes named by offset), the format detected unless one
 * is given. For input that is no file (`ollm compact -` reads stdin); `file` labels the errors.
 */
export function parseTranscriptBytes(bytes: Uint8Array, options: ParseTranscriptOptions): Transcript {
  checkTranscriptSize(options.file, bytes.length);
  return parseTranscript(decodeUtf8(bytes, options.file), options);
}
