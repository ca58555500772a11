import { formatInteger } from '@ollm/core';
import { invalidTranscript } from './invalid-transcript.js';

/**
 * The largest transcript file read: 512 MiB less 24 bytes, the longest string V8 makes (a file's
 * text is one string, and UTF-8 never decodes to more UTF-16 units than it has bytes). A larger
 * file is refused by its size, before it is read; Node could not read one over 2 GiB at all.
 */
export const MAX_TRANSCRIPT_BYTES = 2 ** 29 - 24;
const LIMIT_SHOWN = '512 MiB';

/** Throws InvalidTranscriptError when a file of `size` bytes is over MAX_TRANSCRIPT_BYTES. */
export function checkTranscriptSize(file: string, size: number): void {
  if (size > MAX_TRANSCRIPT_BYTES) throw transcriptTooLarge(file, size);
}

export function transcriptTooLarge(file: string, size: number, cause?: unknown) {
  return invalidTranscript(file, 'file size', `${formatSize(size)} is over the ${LIMIT_SHOWN} limit for one transcript`, cause);
}

/** `600 MiB`, `3 GiB`, `1.5 GiB`; bytes when the rounded figure would read as the limit itself. */
function formatSize(size: number): string {
  const [unit, scale] = size >= 2 ** 30 ? ['GiB', 2 ** 30] : ['MiB', 2 ** 20];
  const shown = `${Number((size / scale).toFixed(1))} ${unit}`;
  return shown === LIMIT_SHOWN ? `${formatInteger(size)} bytes` : shown;
}
