#!/usr/bin/env node
import { runCli } from './run-cli.js';

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
  isTTY: process.stderr.isTTY === true,
});
// exitCode rather than process.exit(): a large transcript written to a pipe is flushed first.
process.exitCode = code;
