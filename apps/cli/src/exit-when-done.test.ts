import { describe, expect, it } from 'vitest';
import { nothingPending } from './exit-when-done.js';

describe('nothingPending', () => {
  it('is true with only the standard streams and a closing file handle open', () => {
    expect(nothingPending([])).toBe(true);
    expect(nothingPending(['PipeWrap', 'PipeWrap', 'TTYWrap', 'CloseReq'])).toBe(true);
  });

  it('is false while a server, a child process, a timer or a file read or write is pending', () => {
    for (const resource of ['TCPServerWrap', 'TCPSocketWrap', 'ProcessWrap', 'Timeout', 'FSReqCallback', 'FSReqPromise', 'Immediate']) {
      expect(nothingPending(['PipeWrap', resource]), resource).toBe(false);
    }
  });

  it('names what this node reports for a pending timer and file read', async () => {
    const { readFile } = await import('node:fs/promises');
    const timer = setTimeout(() => {}, 10_000);
    const reading = readFile(new URL(import.meta.url));
    try {
      expect(nothingPending(process.getActiveResourcesInfo())).toBe(false);
    } finally {
      clearTimeout(timer);
      await reading;
    }
  });
});
