import type { Command } from 'commander';
import type { CommandContext } from '../command-context.js';
import type { CliIo } from '../cli-io.js';
import type { ErrorReport } from '../exit-codes.js';
import { redactingIo, type RedactingIo } from '../redacting-io.js';
import { reportError } from '../report-error.js';

/**
 * What the dispatcher (run-cli.ts) loads for the one command it runs: every command module
 * exports one, made by `defineCommand`.
 */
export interface CommandModule {
  /**
   * Adds the arguments, options, help text, action (and subcommands) to `command`, which the
   * dispatcher has already named and described.
   */
  readonly configure: (command: Command, context: CommandContext) => void;
  /** Maps an error the command threw to an exit code and one line (`reportError`). */
  readonly reportError: (error: unknown, cwd: string) => Promise<ErrorReport>;
  /** The io the command runs with: stdout and stderr redacted (no secret, no URL credentials). */
  readonly redactingIo: (io: CliIo) => RedactingIo;
}

/** A command module: its `configure`, and the CLI's one error mapping and output redaction, which it brings along. */
export function defineCommand(configure: CommandModule['configure']): CommandModule {
  return { configure, reportError, redactingIo };
}
