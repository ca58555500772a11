import { invalidTranscript } from './invalid-transcript.js';
import { transcriptTooLarge } from './transcript-size.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Decodes UTF-8 strictly. On bad bytes the error names the byte offset of the first invalid
 * sequence, so a user can find it with `xxd`.
 */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    const text = decoder.decode(bytes);
    // A byte order mark is not content.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  } catch (error) {
    // Valid UTF-8 whose text is longer than the longest string V8 makes: a size problem, not bad bytes.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STRING_TOO_LONG') throw transcriptTooLarge(file, bytes.length, error);
    const offset = firstInvalidUtf8Offset(bytes);
    throw invalidTranscript(file, `byte ${offset}`, 'the file is not valid UTF-8', error);
  }
}

/** Offset of the first byte that starts an invalid UTF-8 sequence (bytes.length if none). */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index += 1;
      continue;
    }
    let length: number;
    let minimum: number;
    if (lead >= 0xc2 && lead <= 0xdf) [length, minimum] = [2, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [length, minimum] = [3, 0x800];
    else if (lead >= 0xf0 && lead <= 0xf4) [length, minimum] = [4, 0x10000];
    else return index;
    let codePoint = lead & (0xff >> (length + 1));
    for (let next = 1; next < length; next += 1) {
      const byte = bytes[index + next];
      if (byte === undefined || (byte & 0xc0) !== 0x80) return index;
      codePoint = (codePoint << 6) | (byte & 0x3f);
    }
    // Overlong forms, UTF-16 surrogates and values past U+10FFFF are invalid too.
    if (codePoint < minimum || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return index;
    index += length;
  }
  return bytes.length;
}
