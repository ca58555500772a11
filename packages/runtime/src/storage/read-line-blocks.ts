import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** How much of a file is read at a time. */
export const LINE_BLOCK_BYTES = 1 << 20;

/**
 * Reads a JSON-lines file front to back in blocks of whole lines: `onBlock` gets about
 * `LINE_BLOCK_BYTES` of complete lines at a time (without the last newline; a line longer than
 * a block comes whole, in a block of its own), so memory stays bounded by the longest line and
 * never the file. Text after the last newline (a line a crashed writer cut) is never passed on.
 * `onBlock` returns false to stop reading.
 */
export function forEachLineBlock(path: string, onBlock: (text: string) => boolean, blockBytes = LINE_BLOCK_BYTES): void {
  const descriptor = openSync(path, 'r');
  try {
    // A small file gets a buffer its size (one read, nothing to clear): most sessions are far below a block.
    const size = Math.max(1, Math.min(blockBytes, fstatSync(descriptor).size + 1));
    const buffer = Buffer.allocUnsafe(size);
    // The start of a line not finished in the blocks read so far, kept as pieces (no copy per block).
    let pending: Buffer[] = [];
    for (;;) {
      const length = readSync(descriptor, buffer, 0, size, null);
      if (length === 0) return;
      const chunk = buffer.subarray(0, length);
      const newline = chunk.lastIndexOf(0x0a);
      if (newline < 0) {
        pending.push(Buffer.from(chunk));
        continue;
      }
      // Newline bytes never occur inside a multi-byte UTF-8 character, so this never splits one.
      const complete = pending.length === 0 ? chunk.subarray(0, newline) : Buffer.concat([...pending, chunk.subarray(0, newline)]);
      pending = newline + 1 < length ? [Buffer.from(chunk.subarray(newline + 1))] : [];
      if (!onBlock(complete.toString('utf8'))) return;
    }
  } finally {
    closeSync(descriptor);
  }
}
