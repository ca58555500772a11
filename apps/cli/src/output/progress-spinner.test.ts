import { describe, expect, it } from 'vitest';
import type { CliIo } from '../cli-io.js';
import { startSpinner } from './progress-spinner.js';

function io(isTTY: boolean): { io: CliIo; written: string[] } {
  const written: string[] = [];
  const stream = { write: (chunk: string | Uint8Array) => written.push(String(chunk)) };
  return { io: { stdout: stream, stderr: stream, cwd: '/', env: {}, isTTY }, written };
}

describe('progress spinner', () => {
  it('draws the label with elapsed time on a terminal and clears its line when stopped', () => {
    const terminal = io(true);
    const spinner = startSpinner(terminal.io, 'trim: compacting');
    spinner.stop();
    expect(terminal.written[0]).toMatch(/^\r\x1b\[2K. trim: compacting \(\d+ ms\)$/);
    expect(terminal.written.at(-1)).toBe('\r\x1b[2K');
  });

  it('writes nothing when stderr is not a terminal', () => {
    const pipe = io(false);
    const spinner = startSpinner(pipe.io, 'trim: compacting');
    spinner.update('other');
    spinner.stop();
    expect(pipe.written).toEqual([]);
  });
});
