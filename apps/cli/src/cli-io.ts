/** Somewhere the CLI writes: `process.stdout`, or a buffer in tests. */
export interface OutputStream {
  write(chunk: string | Uint8Array): unknown;
}

/**
 * Everything the CLI touches outside itself, injected so that tests run commands in-process
 * and read what they printed.
 */
export interface CliIo {
  readonly stdout: OutputStream;
  readonly stderr: OutputStream;
  /** What `-` in place of a transcript file reads (`ollm compact -`); unset: `process.stdin`. */
  readonly stdin?: AsyncIterable<Uint8Array | string>;
  /** Relative paths on the command line resolve against this folder. */
  readonly cwd: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether stderr is a terminal: progress and colour are shown only then. */
  readonly isTTY: boolean;
  /** Aborted on Ctrl-C: long work stops, and nothing is written. */
  readonly signal?: AbortSignal;
}
