import { createRequire } from 'node:module';
import { Command, CommanderError, Help } from './commander.js';
import type { ProviderRegistry } from '@ollm/runtime';
import type { CliIo } from './cli-io.js';
import type { CommandContext } from './command-context.js';
import type { CommandModule } from './commands/define-command.js';
import type { RedactingIo } from './redacting-io.js';
import { ExitCode, failureReport, oneLine, reportBasicError } from './exit-codes.js';
import { colorsFor } from './output/colors.js';

export interface RunCliOptions {
  /** Providers to offer besides discovered plugins (tests register in-process providers here). */
  readonly registry?: ProviderRegistry;
}

interface CommandEntry {
  /** The summary in the root help, and the description of the command's own help. */
  readonly description: string;
  /** How the root help lists the command: commander's term for its full definition (a test keeps them equal). */
  readonly term: string;
  readonly load: () => Promise<CommandModule>;
}

/**
 * Every command, in the order the root help lists them. This is the one place the CLI loads code
 * lazily: `runCli` imports the module of the one command it runs, and every command module imports
 * what it uses (`@ollm/*` included) statically. `ollm --help` and `ollm --version` load none of
 * them, so neither the runtime, the model clients nor the plugins.
 */
export const COMMANDS = {
  digest: {
    description: 'Print the source digest of a transcript: sha256 over the canonical form of its messages.',
    term: 'digest [options] <file>',
    load: async () => (await import('./commands/digest-command.js')).digestCommand,
  },
  stats: {
    description:
      "Show what a transcript's context is made of: messages by role, tokens by kind (system, user, assistant text, reasoning, tool calls, tool results).",
    term: 'stats [options] <file>',
    load: async () => (await import('./commands/stats-command.js')).statsCommand,
  },
  providers: {
    description: 'List the context providers discovery found, with the package each came from.',
    term: 'providers [options]',
    load: async () => (await import('./commands/providers-command.js')).providersCommand,
  },
  compact: {
    description: 'Compact a transcript with a context provider and write it back in the same format.',
    term: 'compact [options] <file>',
    load: async () => (await import('./commands/compact-command.js')).compactCommand,
  },
  recover: {
    description: 'Print content a provider removed, byte-for-byte, from the recovery store.',
    term: 'recover [options] <reference>',
    load: async () => (await import('./commands/recover-command.js')).recoverCommand,
  },
  gc: {
    description: 'Delete old, unreferenced content from the recovery store, and files left by killed processes (--dry-run to see first).',
    term: 'gc [options]',
    load: async () => (await import('./commands/gc-command.js')).gcCommand,
  },
  serve: {
    description: "Serve a proxy in front of an Ollama or OpenAI-compatible server that makes every chat request fit the model's window.",
    term: 'serve [options]',
    load: async () => (await import('./commands/serve-command.js')).serveCommand,
  },
  launch: {
    description: 'Run a coding agent (claude, codex, opencode, cline, pi) through ollm serve on a free port, stopped when the agent exits.',
    term: 'launch [options] <agent> [agentArguments...]',
    load: async () => (await import('./commands/launch-command.js')).launchCommand,
  },
  sessions: {
    description: 'List, show, search, export or delete chat sessions (the full records under $OLLM_HOME/sessions).',
    term: 'sessions',
    load: async () => (await import('./commands/sessions-command.js')).sessionsCommand,
  },
  snapshot: {
    description: "List, show, restore or delete snapshots of a session's context (messages, checkpoints, goal).",
    term: 'snapshot',
    load: async () => (await import('./commands/snapshot-command.js')).snapshotCommand,
  },
  config: {
    description: 'Print the effective configuration and where each value came from.',
    term: 'config [options]',
    load: async () => (await import('./commands/config-command.js')).configCommand,
  },
  chat: {
    description: 'Chat with a model inside a fixed context window (the default: `ollm` alone starts it).',
    term: 'chat [options]',
    load: async () => (await import('./commands/chat-command.js')).chatCommand,
  },
} as const satisfies Record<string, CommandEntry>;

export type CommandName = keyof typeof COMMANDS;

/** What a bare `ollm [chat options]` runs. */
const DEFAULT_COMMAND: CommandName = 'chat';
/** The root's own options that take no value: they may come before the command's name. */
const GLOBAL_FLAGS = new Set(['--no-plugins', '--debug', '--no-color']);
/** The root's help and version: answered without any command module. */
const ROOT_ANSWERS = new Set(['-h', '--help', '-V', '--version']);

// Required, not read with node:fs: an ES import of node:fs builds its whole namespace, streams
// included (~2 ms), and the root's help and version need nothing else of it.
const version = (createRequire(import.meta.url)('../package.json') as { version: string }).version;

/** For the root help: the chat options, since a bare `ollm` starts the chat. */
const rootChatHelp = `
Chat options (\`ollm [options]\` is \`ollm chat [options]\`):
  --provider <name>      model-based provider automatic compaction ends with, or a pipeline (default: goal-aware)
  --model <name>         model (default: llama3.2:3b, or OLLM_MODEL)
  --host <url>           Ollama server (default: http://127.0.0.1:11434, or OLLM_HOST)
  --api <ollama|openai>  model API (default: ollama)
  --base-url <url>       OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1 (implies --api openai)
  --context-size <n>     window in tokens (default: the model's, else 16,384)
  --reply-reserve <n>    tokens kept back for the model's reply (default: 15% of the window)
  --session <id>         resume this session (or start one with this id)
  --force                take over the session even if another running ollm holds it
  --provider-option <p.k=v>  a provider's own option, repeatable: trim.previewLines=0 (config providerOptions)`;

/**
 * Runs `ollm` with `argv` (without node and script) and returns the exit code. Nothing here
 * calls `process.exit`, so tests run commands in-process.
 */
export async function runCli(givenArgv: readonly string[], givenIo: CliIo, options: RunCliOptions = {}): Promise<number> {
  // `--no-color`, wherever it is on the line, is NO_COLOR for this run (every command reads colour from there).
  const argv = givenArgv.filter((word) => word !== '--no-color');
  const rawIo = argv.length === givenArgv.length ? givenIo : { ...givenIo, env: { ...givenIo.env, NO_COLOR: '1' } };
  let io = rawIo;
  let loaded: CommandModule | undefined;
  let redacting: RedactingIo | undefined;
  try {
    const name = commandToRun(argv);
    loaded = name === undefined ? undefined : await COMMANDS[name].load();
    // Everything a command prints goes through core's redaction (no secret, no URL credentials).
    redacting = loaded?.redactingIo(rawIo);
    io = redacting?.io ?? rawIo;
    const context: CommandContext = { io, ...(options.registry ? { registry: options.registry } : {}) };
    const program = buildProgram(context, name === undefined || loaded === undefined ? undefined : { name, module: loaded });
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    // A loaded command maps its errors (ollm's typed errors included); before that, only usage
    // errors and the like can happen, and they need nothing from @ollm/*.
    const report = loaded ? await loaded.reportError(error, io.cwd) : (reportBasicError(error, io.cwd) ?? failureReport(error));
    if (report.exitCode === ExitCode.ok) return report.exitCode;
    // Commander already printed the help text that explains a bare `ollm`.
    if (error instanceof CommanderError && error.code === 'commander.help') return report.exitCode;
    io.stderr.write(`${colorsFor(io).red('ollm:')} ${oneLine(report.message)}\n`);
    if (argv.includes('--debug') && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
    return report.exitCode;
  } finally {
    redacting?.flush();
  }
}

/**
 * The command `argv` runs, decided as commander will parse it: the first word after the root's
 * flags when it names a command (`help NAME`: NAME), nothing for the root's help and version (or
 * `help` alone), and otherwise the default command: chat options, no words, or a mistyped
 * command, which chat reports with a suggestion.
 */
export function commandToRun(argv: readonly string[]): CommandName | undefined {
  let index = 0;
  while (index < argv.length && GLOBAL_FLAGS.has(argv[index]!)) index += 1;
  const first = argv[index];
  if (first === undefined) return DEFAULT_COMMAND;
  if (first === 'help') {
    const named = argv[index + 1];
    return isCommandName(named) ? named : undefined;
  }
  if (isCommandName(first)) return first;
  return ROOT_ANSWERS.has(first) ? undefined : DEFAULT_COMMAND;
}

function isCommandName(word: string | undefined): word is CommandName {
  return word !== undefined && Object.hasOwn(COMMANDS, word);
}

/**
 * The root command with every command named and described (enough for the root help), and the
 * one that runs fully configured by its module.
 */
function buildProgram(context: CommandContext, running: { readonly name: CommandName; readonly module: CommandModule } | undefined): Command {
  const { io } = context;
  const program = new Command('ollm')
    .description(
      'Keep long LLM conversations inside a fixed context window: chat with a model (ollm alone), compact transcripts, inspect what fills them, recover what was removed.',
    )
    .version(version, '-V, --version', 'print the version')
    .option('--no-plugins', 'load no plugin packages (safe mode)')
    .option('--debug', 'print stack traces with errors')
    .option('--no-color', 'no colour (also NO_COLOR, FORCE_COLOR=0, TERM=dumb)')
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

Exit codes: 0 ok, 1 failure, 2 bad input or usage, 3 model unreachable, 4 the chat got no reply to any message, 130 interrupted, 143 terminated (SIGTERM).
Environment: OLLM_HOME (default ~/.ollm) holds sessions, snapshots and removed content (removed/<sha256>.txt).`,
    );
  program.configureOutput({
    writeOut: (text) => io.stdout.write(text),
    writeErr: (text) => io.stderr.write(text),
    // runCli prints every error as one line; commander's own rendering is not used.
    outputError: () => {},
  });
  // The commands not loaded have no arguments or options here: the root help lists the terms.
  program.configureHelp({
    subcommandTerm(command) {
      const name = command.name();
      return command.parent === program && isCommandName(name) ? COMMANDS[name].term : Help.prototype.subcommandTerm.call(this, command);
    },
  });
  // Set before the subcommands are added, which inherit it: usage errors throw, never exit.
  program.exitOverride();
  for (const [name, entry] of Object.entries(COMMANDS) as [CommandName, CommandEntry][]) {
    const command = program.command(name, name === DEFAULT_COMMAND ? { isDefault: true } : {}).description(entry.description);
    if (running?.name === name) running.module.configure(command, context);
  }
  return program;
}
