import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliIo } from './cli-io.js';

/** `$OLLM_HOME`, default `~/.ollm`: where removed content is saved (`<home>/removed/<sha256>.txt`). */
export function ollmHome(io: CliIo): string {
  const configured = io.env['OLLM_HOME'];
  if (configured && configured.length > 0) return resolve(io.cwd, configured);
  return join(io.env['HOME'] || homedir(), '.ollm');
}

/** The logdir a command uses: `--logdir` when given, else `$OLLM_HOME`. */
export function resolveLogdir(io: CliIo, logdir: string | undefined): string {
  return logdir ? resolve(io.cwd, logdir) : ollmHome(io);
}
