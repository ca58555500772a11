import { InvalidTranscriptError } from '@ollm/core';
import { MAX_TRANSCRIPT_BYTES } from '@ollm/transcripts';

/** How a transcript read from stdin is named in errors and reports. */
export const STANDARD_INPUT_NAME = '<stdin>';

/** `-` in place of a file: stdin for the transcript read (`ollm compact -`), stdout for `--out -`. */
export const STANDARD_STREAM = '-';

/**
 * Reads all of stdin as bytes, bounded as a transcript file is (MAX_TRANSCRIPT_BYTES): past the
 * limit it stops reading (the stream is closed, the writer gets EPIPE) and throws the
 * InvalidTranscriptError a file of that size gets, without holding more than the limit.
 */
export async function readStandardInput(input: AsyncIterable<Uint8Array | string>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  // A throw inside for-await ends the iteration: a Node stream is destroyed, so nothing more is read.
  for await (const chunk of input) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    size += bytes.length;
    if (size > MAX_TRANSCRIPT_BYTES) {
      throw new InvalidTranscriptError({
        file: STANDARD_INPUT_NAME,
        position: 'input size',
        reason: `over the ${formatMebibytes(MAX_TRANSCRIPT_BYTES)} limit for one transcript (reading stopped there)`,
      });
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

/** `512 MiB` for the limit (2^29 less 24 bytes, shown as the transcript reader shows it). */
function formatMebibytes(bytes: number): string {
  return `${Math.ceil(bytes / 2 ** 20)} MiB`;
}
