import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CliIo } from '../cli-io.js';
import { clearSpinners, startSpinner } from './progress-spinner.js';

function io(isTTY: boolean): { io: CliIo; written: string[] } {
  const written: string[] = [];
  const stream = { write: (chunk: string | Uint8Array) => written.push(String(chunk)) };
  return { io: { stdout: stream, stderr: stream, cwd: '/', env: {}, isTTY }, written };
}

const frame = /^\r\x1b\[2K. trim: compacting \(\d+ ms\)$/;

describe('progress spinner', () => {
  // The frames are driven by hand: nothing here depends on the clock.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('draws the label with elapsed time on a terminal and clears its line when stopped', () => {
    const terminal = io(true);
    const spinner = startSpinner(terminal.io, 'trim: compacting');
    spinner.stop();
    expect(terminal.written[0]).toMatch(frame);
    expect(terminal.written.at(-1)).toBe('\r\x1b[2K');
  });

  it('draws nothing on a terminal whose TERM is dumb (it shows escapes raw)', () => {
    const written: string[] = [];
    const stream = { write: (chunk: string | Uint8Array) => written.push(String(chunk)) };
    const spinner = startSpinner({ stdout: stream, stderr: stream, cwd: '/', env: { TERM: 'dumb' }, isTTY: true }, 'trim: compacting');
    vi.advanceTimersByTime(1_000);
    spinner.stop();
    expect(written).toEqual([]);
  });

  it('redraws until stopped, and stopping twice writes nothing more', () => {
    const terminal = io(true);
    const spinner = startSpinner(terminal.io, 'trim: compacting');
    vi.advanceTimersByTime(350);
    expect(terminal.written.length).toBe(4);
    spinner.stop();
    const count = terminal.written.length;
    spinner.stop();
    vi.advanceTimersByTime(1000);
    expect(terminal.written.length).toBe(count);
  });

  it('clears a running spinner before a line is printed, and it stays quiet until stopped', () => {
    const terminal = io(true);
    const spinner = startSpinner(terminal.io, 'trim: compacting');
    clearSpinners(terminal.io);
    expect(terminal.written.at(-1)).toBe('\r\x1b[2K');
    terminal.io.stdout.write('compacted with trim: 900 -> 400 tokens\n');
    vi.advanceTimersByTime(1000);
    spinner.update('other');
    spinner.stop();
    expect(terminal.written.at(-1)).toBe('compacted with trim: 900 -> 400 tokens\n');
  });

  it('resumes the spinners a clear paused, on a fresh line', () => {
    const terminal = io(true);
    const spinner = startSpinner(terminal.io, 'trim: compacting');
    const resume = clearSpinners(terminal.io);
    terminal.io.stdout.write('a line\n');
    resume();
    expect(terminal.written.at(-2)).toBe('a line\n');
    expect(terminal.written.at(-1)).toMatch(frame);
    vi.advanceTimersByTime(100);
    expect(terminal.written.at(-1)).toMatch(frame);
    spinner.stop();
    expect(terminal.written.at(-1)).toBe('\r\x1b[2K');
  });

  it('does not touch a stopped spinner or one on another stream', () => {
    const first = io(true);
    const second = io(true);
    startSpinner(first.io, 'trim: compacting').stop();
    const other = startSpinner(second.io, 'trim: compacting');
    const firstCount = first.written.length;
    clearSpinners(first.io)();
    expect(first.written.length).toBe(firstCount);
    expect(second.written.at(-1)).toMatch(frame);
    other.stop();
  });

  it('writes nothing when stderr is not a terminal', () => {
    const pipe = io(false);
    const spinner = startSpinner(pipe.io, 'trim: compacting');
    spinner.update('other');
    clearSpinners(pipe.io)();
    spinner.pause();
    spinner.resume();
    spinner.stop();
    expect(pipe.written).toEqual([]);
  });
});
