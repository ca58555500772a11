import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createLineReader, type LineReader, type LineReaderOptions } from './line-reader.js';

const pasteStart = '\x1b[200~';
const pasteEnd = '\x1b[201~';
const left = '\x1b[D';
const readers: LineReader[] = [];

afterEach(() => {
  for (const reader of readers.splice(0)) reader.close();
});

/** Lets the streams deliver what was written: no clock involved, only the event loop's order. */
function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

function fakeTerminal(options: Partial<LineReaderOptions> = {}) {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: false,
    setRawMode(mode: boolean) {
      input.isRaw = mode;
      return input;
    },
  });
  const output = new PassThrough();
  let written = '';
  output.setEncoding('utf8').on('data', (chunk: string) => (written += chunk));
  let quitHints = 0;
  const reader = createLineReader({
    input,
    output,
    terminal: true,
    onQuitHint: () => (quitHints += 1),
    ...options,
  });
  readers.push(reader);
  return {
    reader,
    input,
    quitHints: () => quitHints,
    written: () => written,
    async type(text: string): Promise<void> {
      input.write(text);
      await settle();
    },
  };
}

function pipe() {
  const input = new PassThrough();
  const reader = createLineReader({ input, terminal: false });
  readers.push(reader);
  return { reader, input };
}

describe('line reader on a terminal', () => {
  it('turns bracketed paste on when it starts and off when it closes', async () => {
    const terminal = fakeTerminal();
    await settle();
    expect(terminal.written()).toContain('\x1b[?2004h');
    expect(terminal.written()).not.toContain('\x1b[?2004l');
    terminal.reader.close();
    await settle();
    expect(terminal.written().endsWith('\x1b[?2004l')).toBe(true);
    expect(terminal.input.isRaw).toBe(false);
  });

  it('takes a paste of several indented lines as one input, submitted by the next Enter', async () => {
    const terminal = fakeTerminal();
    let received: unknown;
    const next = terminal.reader.nextInput().then((input) => (received = input));
    await terminal.type(`${pasteStart}def total(items):\r    sum = 0\r\r\tfor item in items:\r        sum += item${pasteEnd}`);
    expect(received).toBeUndefined();
    await terminal.type('\r');
    await next;
    expect(received).toEqual({ text: 'def total(items):\n    sum = 0\n\n\tfor item in items:\n        sum += item', source: 'paste' });
  });

  it('inserts a paste at the cursor, the rest of the line after it', async () => {
    const terminal = fakeTerminal();
    await terminal.type(`ab${left}`);
    await terminal.type(`${pasteStart}x\ry${pasteEnd}`);
    // One key per chunk, as typed: within one chunk, readline appends at the end of the line wherever the cursor is.
    for (const key of ' and\r') await terminal.type(key);
    expect(await terminal.reader.nextInput()).toEqual({ text: 'ax\ny andb', source: 'paste' });
  });

  it('inserts a paste at the cursor when the whole sequence arrives in one chunk', async () => {
    const terminal = fakeTerminal();
    await terminal.type(`ab${left}${pasteStart}x\ry${pasteEnd}\r`);
    expect(await terminal.reader.nextInput()).toEqual({ text: 'ax\nyb', source: 'paste' });
  });

  it('drops the trailing newline of a paste and keeps its last backslash when Enter follows at once', async () => {
    const terminal = fakeTerminal();
    await terminal.type(`${pasteStart}make \\\r${pasteEnd}\r`);
    expect(await terminal.reader.nextInput()).toEqual({ text: 'make \\', source: 'paste' });
  });

  it('continues a line ending with a backslash, with a continuation prompt', async () => {
    const terminal = fakeTerminal();
    let received: unknown;
    const next = terminal.reader.nextInput().then((input) => (received = input));
    await terminal.type('first line \\\r');
    expect(received).toBeUndefined();
    expect(terminal.written()).toContain('... ');
    await terminal.type('  second line\r');
    await next;
    expect(received).toEqual({ text: 'first line \n  second line', source: 'continued' });
  });

  it('takes a trailing escaped backslash as one literal backslash that does not continue', async () => {
    const terminal = fakeTerminal();
    await terminal.type('C:\\temp\\\\\r');
    expect(await terminal.reader.nextInput()).toEqual({ text: 'C:\\temp\\', source: 'line' });
  });

  it('keeps what is typed while busy out of the reply and types it at the next prompt (type-ahead)', async () => {
    const terminal = fakeTerminal();
    await terminal.type('hello\r');
    expect(await terminal.reader.nextInput()).toEqual({ text: 'hello', source: 'line' });
    terminal.reader.setBusy(true);
    const before = terminal.written().length;
    await terminal.type('second\r  more typo\x7f\x7f');
    await terminal.type(`${pasteStart}pasted\nlines${pasteEnd}`);
    // Nothing echoed into the reply while it streams.
    expect(terminal.written().slice(before)).not.toContain('second');
    terminal.reader.setBusy(false);
    // The line finished with Enter is the next input; the rest waits on the prompt, the paste whole.
    expect(await terminal.reader.nextInput()).toEqual({ text: 'second', source: 'line' });
    const third = terminal.reader.nextInput();
    await terminal.type(' end\r');
    expect(await third).toEqual({ text: '  more typasted\nlines end', source: 'paste' });
  });

  it('sends Ctrl-C while busy to the interrupt handler and keeps reading', async () => {
    const terminal = fakeTerminal();
    let interrupts = 0;
    terminal.reader.setBusy(true);
    terminal.reader.setInterruptHandler(() => (interrupts += 1));
    await terminal.type('\x03');
    expect(interrupts).toBe(1);
    terminal.reader.setInterruptHandler(undefined);
    terminal.reader.setBusy(false);
    await terminal.type('still here\r');
    expect(await terminal.reader.nextInput()).toEqual({ text: 'still here', source: 'line' });
    expect(terminal.quitHints()).toBe(0);
  });

  it('ends on Ctrl-C twice at an empty prompt, after one hint', async () => {
    const terminal = fakeTerminal();
    const next = terminal.reader.nextInput();
    await terminal.type('\x03');
    expect(terminal.quitHints()).toBe(1);
    await terminal.type('\x03');
    expect(await next).toBeUndefined();
    expect(await terminal.reader.nextInput()).toBeUndefined();
  });

  it('clears typed text, every continued line of it, on Ctrl-C instead of arming quit', async () => {
    const terminal = fakeTerminal();
    await terminal.type('abandoned \\\r');
    await terminal.type('half');
    await terminal.type('\x03');
    expect(terminal.quitHints()).toBe(0);
    await terminal.type('fresh\r');
    expect(await terminal.reader.nextInput()).toEqual({ text: 'fresh', source: 'line' });
  });

  it('ends on Ctrl-D at an empty prompt', async () => {
    const terminal = fakeTerminal();
    const next = terminal.reader.nextInput();
    await terminal.type('\x04');
    expect(await next).toBeUndefined();
  });

  it('submits any pasted text exactly', async () => {
    const character = fc.constantFrom('a', 'Z', ' ', '\t', '\\', '{', 'é', '😀', '\n');
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: character, minLength: 1, maxLength: 40 }), async (text) => {
        const terminal = fakeTerminal();
        await terminal.type(`${pasteStart}${text.replaceAll('\n', '\r')}${pasteEnd}\r`);
        expect(await terminal.reader.nextInput()).toEqual({ text: text.replace(/\n+$/, ''), source: 'paste' });
        terminal.reader.close();
      }),
      { numRuns: 60 },
    );
  });
});

describe('line reader on a pipe', () => {
  it('reads one input per line, joining lines continued with a backslash', async () => {
    const { reader, input } = pipe();
    input.end('one \\\n  two\nthree\\\\\n  plain\n');
    expect(await reader.nextInput()).toEqual({ text: 'one \n  two', source: 'continued' });
    expect(await reader.nextInput()).toEqual({ text: 'three\\', source: 'line' });
    expect(await reader.nextInput()).toEqual({ text: '  plain', source: 'line' });
    expect(await reader.nextInput()).toBeUndefined();
  });

  it('queues lines that arrive while busy, each its own input', async () => {
    const { reader, input } = pipe();
    reader.setBusy(true);
    input.write('first\n  second\n');
    await settle();
    reader.setBusy(false);
    expect(await reader.nextInput()).toEqual({ text: 'first', source: 'line' });
    expect(await reader.nextInput()).toEqual({ text: '  second', source: 'line' });
  });

  it('delivers an input still being continued at the end of input', async () => {
    const { reader, input } = pipe();
    input.end('last \\\n');
    expect(await reader.nextInput()).toEqual({ text: 'last ', source: 'continued' });
    expect(await reader.nextInput()).toBeUndefined();
  });
});
