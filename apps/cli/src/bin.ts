#!/usr/bin/env node
import { exitWhenDone } from './exit-when-done.js';
import { runCli } from './run-cli.js';

// A reader that stops early (`ollm compact big.json | head`) closes the pipe: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

// The first Ctrl-C asks running work to stop cleanly (compact then writes nothing and exits 130);
// work that does not watch the signal is ended a moment later, and a second Ctrl-C ends it at once.
const interrupt = new AbortController();
process.once('SIGINT', () => {
  interrupt.abort();
  setTimeout(() => process.exit(130), 1000).unref();
});

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stderr.isTTY === true,
  signal: interrupt.signal,
});
// After the output is flushed (a large transcript to a pipe included); at once when nothing else is pending.
await exitWhenDone(code);
