#!/usr/bin/env node
import { runCli } from './run-cli.js';

// A reader that stops early (`ollm compact big.json | head`) closes the pipe: that is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stderr.isTTY === true,
});
// exitCode rather than process.exit(): a large transcript written to a pipe is flushed first.
process.exitCode = code;
