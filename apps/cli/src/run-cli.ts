import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import type { ProviderRegistry } from '@ollm/runtime';
import type { CliIo } from './cli-io.js';
import type { CommandContext } from './command-context.js';
import { ExitCode, oneLine, reportError } from './exit-codes.js';
import { colorsFor } from './output/colors.js';
import { registerChatCommand, rootChatHelp } from './commands/chat-command.js';
import { registerCompactCommand } from './commands/compact-command.js';
import { registerConfigCommand } from './commands/config-command.js';
import { registerDigestCommand } from './commands/digest-command.js';
import { registerProvidersCommand } from './commands/providers-command.js';
import { registerRecoverCommand } from './commands/recover-command.js';
import { registerSessionsCommand } from './commands/sessions-command.js';
import { registerSnapshotCommand } from './commands/snapshot-command.js';
import { registerStatsCommand } from './commands/stats-command.js';

export interface RunCliOptions {
  /** Providers to offer besides discovered plugins (tests register in-process providers here). */
  readonly registry?: ProviderRegistry;
}

const version = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * Runs `ollm` with `argv` (without node and script) and returns the exit code. Nothing here
 * calls `process.exit`, so tests run commands in-process.
 */
export async function runCli(argv: readonly string[], io: CliIo, options: RunCliOptions = {}): Promise<number> {
  const program = buildProgram({ io, ...(options.registry ? { registry: options.registry } : {}) });
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    const report = await reportError(error, io.cwd);
    if (report.exitCode === ExitCode.ok) return report.exitCode;
    // Commander already printed the help text that explains a bare `ollm`.
    if (error instanceof CommanderError && error.code === 'commander.help') return report.exitCode;
    io.stderr.write(`${colorsFor(io).red('ollm:')} ${oneLine(report.message)}\n`);
    if (argv.includes('--debug') && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return report.exitCode;
  }
}

function buildProgram(context: CommandContext): Command {
  const { io } = context;
  const program = new Command('ollm')
    .description(
      'Keep long LLM conversations inside a fixed context window: chat with a model (ollm alone), compact transcripts, inspect what fills them, recover what was removed.',
    )
    .version(version, '-V, --version', 'print the version')
    .option('--no-plugins', 'load no plugin packages (safe mode)')
    .option('--debug', 'print stack traces with errors')
    .helpOption('-h, --help', 'show help')
    .helpCommand('help [command]', 'show help for a command')
    .showSuggestionAfterError(true)
    .addHelpText(
      'after',
      `${rootChatHelp}

Examples:
  $ ollm --provider goal-aware --context-size 8192
  $ ollm stats session.traj.json
  $ ollm compact session.traj.json --provider trim --limit 50% --out small.traj.json
  $ ollm recover 3f2a9c1e

Exit codes: 0 ok, 1 failure, 2 bad input or usage, 3 model unreachable, 130 interrupted.
Environment: OLLM_HOME (default ~/.ollm) holds sessions, snapshots and removed content (removed/<sha256>.txt).`,
    );
  program.configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
    // runCli prints every error as one line; commander's own rendering is not used.
    outputError: () => {},
  });
  // Set before the subcommands are added, which inherit it: usage errors throw, never exit.
  program.exitOverride();
  registerDigestCommand(program, context);
  registerStatsCommand(program, context);
  registerProvidersCommand(program, context);
  registerCompactCommand(program, context);
  registerRecoverCommand(program, context);
  registerSessionsCommand(program, context);
  registerSnapshotCommand(program, context);
  registerConfigCommand(program, context);
  registerChatCommand(program, context);
  return program;
}
