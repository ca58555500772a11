import { createInterface } from 'node:readline';

export interface LineReaderOptions {
  readonly input: NodeJS.ReadableStream;
  /** A terminal: prompt, line editing, and Ctrl-C as a key. Otherwise lines are read as they come (pipes). */
  readonly terminal: boolean;
  /** Where the prompt is drawn (terminal only). */
  readonly output?: NodeJS.WritableStream;
  readonly prompt?: string;
  /** Told when Ctrl-C at an empty prompt needs a second press to quit. */
  readonly onQuitHint?: () => void;
}

/** Lines typed or piped in, one at a time, and Ctrl-C routed to whatever is running. */
export interface LineReader {
  /** The next line; undefined at the end: EOF, Ctrl-D, or Ctrl-C twice at an empty prompt. */
  nextLine(): Promise<string | undefined>;
  /** While a reply streams, Ctrl-C calls this handler (to cancel it) instead of quitting. */
  setInterruptHandler(handler: (() => void) | undefined): void;
  close(): void;
}

/**
 * Reads with Node's readline. Ctrl-C arrives as a key on a terminal (readline's `SIGINT`) and as
 * a signal otherwise; both go to one place. The process's other SIGINT listeners (the binary's
 * "abort and exit 130") are set aside while the chat runs and put back on close, because in a
 * chat Ctrl-C cancels a reply rather than ending the program.
 */
export function createLineReader(options: LineReaderOptions): LineReader {
  const readline = createInterface({
    input: options.input,
    ...(options.terminal && options.output ? { output: options.output } : {}),
    terminal: options.terminal,
    prompt: options.prompt ?? '> ',
  });
  const queued: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  let interruptHandler: (() => void) | undefined;
  let quitArmed = false;

  const finish = (): void => {
    if (ended) return;
    ended = true;
    for (const resolve of waiting.splice(0)) resolve(undefined);
    readline.close();
  };

  readline.on('line', (line) => {
    quitArmed = false;
    const resolve = waiting.shift();
    if (resolve) resolve(line);
    else queued.push(line);
  });
  readline.on('close', finish);

  const interrupt = (): void => {
    if (interruptHandler) {
      interruptHandler();
      return;
    }
    if (!options.terminal) {
      finish();
      return;
    }
    if (readline.line.length > 0) {
      // Ctrl-C with text typed clears the line, as shells do.
      readline.write(null, { ctrl: true, name: 'u' });
      quitArmed = false;
      return;
    }
    if (quitArmed) {
      finish();
      return;
    }
    quitArmed = true;
    options.onQuitHint?.();
    readline.prompt();
  };
  readline.on('SIGINT', interrupt);
  const previousListeners = process.rawListeners('SIGINT');
  process.removeAllListeners('SIGINT');
  process.on('SIGINT', interrupt);

  return {
    nextLine() {
      const line = queued.shift();
      if (line !== undefined) return Promise.resolve(line);
      if (ended) return Promise.resolve(undefined);
      if (options.terminal) readline.prompt();
      return new Promise((resolve) => waiting.push(resolve));
    },
    setInterruptHandler(handler) {
      interruptHandler = handler;
    },
    close() {
      finish();
      process.off('SIGINT', interrupt);
      for (const listener of previousListeners) process.on('SIGINT', listener as NodeJS.SignalsListener);
    },
  };
}
