import { join } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError, RECOVERY_FOLDER } from '@ollm/core';
import { loadConfig } from '@ollm/runtime';
import type { CommandContext } from '../command-context.js';
import { resolveLogdir } from '../ollm-home.js';
import { describeTidy, tidyHome } from '../sessions/tidy-home.js';
import { defineCommand } from './define-command.js';

interface GcOptions {
  readonly dryRun?: boolean;
  readonly logdir?: string;
  readonly maxAgeDays?: string;
  readonly maxTotalMb?: string;
  readonly json?: boolean;
}

/** `ollm gc`: named and described by the dispatcher (run-cli.ts). */
export const gcCommand = defineCommand((command: Command, context: CommandContext) => {
  command
    .option('--dry-run', 'print what would be deleted, delete nothing')
    .option('--logdir <dir>', 'the logdir whose recovery store is collected (default: $OLLM_HOME or ~/.ollm)')
    .option('--max-age-days <days>', 'delete unreferenced entries older than this (default: config recovery.maxAgeDays, 30)')
    .option('--max-total-mb <mb>', 'then the oldest unreferenced while the store is over this (default: config recovery.maxTotalMB, 500)')
    .option('--json', 'print the report as JSON (every entry deleted, with its reason)')
    .addHelpText(
      'after',
      `
The recovery store (<logdir>/removed/<sha256>.txt) keeps what providers removed so that
\`ollm recover\` can print it. gc deletes an entry when nothing references it and it was saved
more than an hour ago, and either it is older than recovery.maxAgeDays or the store is over
recovery.maxTotalMB (then the oldest go first). An entry named by any session's saved context
($OLLM_HOME/sessions/<id>/*.json) or any snapshot is never deleted, in full or by a prefix
(ollm recover 3f2a9c1e4b7d, [ollm fold 3f2a9c1e4b7d], removed/<sha256>.txt). gc also removes
temporary and lock files left by processes that ended (a SIGKILL mid-write) over a minute ago.
A chat runs the same at start when the store is past a limit (recovery.autoCollect: false to stop).

Examples:
  $ ollm gc --dry-run
  $ ollm gc
  $ ollm gc --max-total-mb 100 --logdir ./logs`,
    )
    .action(async (options: GcOptions) => {
      const { io } = context;
      const { config } = await loadConfig({ cwd: io.cwd, env: io.env as NodeJS.ProcessEnv });
      const recovery = {
        maxAgeDays: options.maxAgeDays !== undefined ? positiveNumber('max-age-days', options.maxAgeDays) : config.recovery.maxAgeDays,
        maxTotalMB: options.maxTotalMb !== undefined ? positiveNumber('max-total-mb', options.maxTotalMb) : config.recovery.maxTotalMB,
      };
      const logdir = resolveLogdir(io, options.logdir);
      const report = tidyHome({ home: config.home, logdir, recovery, dryRun: options.dryRun === true });
      if (options.json) {
        io.stdout.write(
          `${JSON.stringify({ ...report.garbage, recovery, staleFiles: report.staleFiles, expiredCompactions: report.expiredCompactions }, null, 2)}\n`,
        );
        return;
      }
      for (const line of describeTidy(report, recovery, join(logdir, RECOVERY_FOLDER))) io.stdout.write(`${line}\n`);
    });
});

function positiveNumber(flag: string, text: string): number {
  const value = Number(text.trim());
  if (text.trim().length === 0 || !Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError({ argument: flag, message: `Invalid --${flag} "${text}": use a number above 0.` });
  }
  return value;
}
