// Child process for the stale-file tests: takes a history lock, starts an atomic write, and
// stops for good between writing the temporary file and renaming it, until the test SIGKILLs it.
// Uses the built packages (dist): the same code a chat runs.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { join } from 'node:path';
import { writeFileAtomic } from '@ollm/core';
import { withFileLock } from '../../../dist/index.js';

const [home] = process.argv.slice(2);
const folder = join(home, 'sessions', 'killed');
fs.mkdirSync(folder, { recursive: true });
withFileLock(join(folder, 'history.jsonl.lock'), () => {
  fs.renameSync = () => {
    process.stdout.write('ready\n');
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  };
  syncBuiltinESMExports();
  writeFileAtomic(join(folder, 'context.json'), '{"version":1}\n');
});
