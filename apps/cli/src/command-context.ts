import type { Command } from 'commander';
import type { ProviderRegistry } from '@ollm/runtime';
import type { CliIo } from './cli-io.js';

/** What every command gets: the injected io, and an optional registry (tests add providers). */
export interface CommandContext {
  readonly io: CliIo;
  readonly registry?: ProviderRegistry;
}

/** The global options, readable from any subcommand. */
export interface GlobalOptions {
  /** False with `--no-plugins`. */
  readonly plugins: boolean;
  readonly debug: boolean;
}

export function globalOptions(command: Command): GlobalOptions {
  const options = command.optsWithGlobals<{ plugins?: boolean; debug?: boolean }>();
  return { plugins: options.plugins !== false, debug: options.debug === true };
}
