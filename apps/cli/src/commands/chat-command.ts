import { CommanderError, type Command } from '../commander.js';
import type { ChatFlags } from '../chat/chat-settings.js';
import { closestMatch } from '../chat/closest-match.js';
import { runChat } from '../chat/run-chat.js';
import { collectProviderOption } from '../provider-options.js';
import { globalOptions, type CommandContext } from '../command-context.js';
import { defineCommand } from './define-command.js';

/**
 * `ollm chat`, the default command: a bare `ollm [chat options]` lands here (the dispatcher,
 * run-cli.ts, names it, describes it and makes it the default). A first word that is no command
 * (`ollm compcat`) is reported as an unknown command with a suggestion, as before.
 */
export const chatCommand = defineCommand((command: Command, context: CommandContext) => {
  command
    .option('--provider <name>', 'model-based provider automatic compaction ends with, or a pipeline (default: goal-aware)')
    .option('--model <name>', 'model name (default: llama3.2:3b, or OLLM_MODEL)')
    .option('--host <url>', 'Ollama server (default: http://127.0.0.1:11434, or OLLM_HOST)')
    .option('--api <api>', 'model API: ollama or openai (default: ollama)')
    .option('--base-url <url>', 'OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1 (implies --api openai)')
    .option('--context-size <tokens>', "window in tokens (default: the model's context length, else 16,384)")
    .option('--reply-reserve <tokens>', "tokens kept back for the model's reply (default: compaction.replyReserve, else 15% of the window)")
    .option('--timeout <seconds>', 'how long one model call may take, retries included (default: config timeout, else 300)')
    .option('--session <id>', 'resume this session (or start one with this id)')
    .option('--force', 'take over the session even if another running ollm holds it')
    .option(
      '--provider-option <provider.key=value>',
      "a provider's own option, over config providerOptions (repeatable; the value is JSON or text), e.g. trim.previewLines=0",
      collectProviderOption,
    )
    .allowExcessArguments(true)
    .addHelpText(
      'after',
      `
Slash commands: /compact [trim|summarize|PROVIDER], /providers, /status, /goal [TEXT],
/snapshot create|list|restore ID|delete ID, /history, /export [FILE], /sessions, /help, /quit.
Replies stream; Ctrl-C cancels a reply (the partial reply is kept). Ctrl-C twice at an empty
prompt, Ctrl-D or /quit ends. Piped input is read line by line until EOF.

Examples:
  $ ollm --provider goal-aware
  $ ollm --model qwen2.5-coder:7b --context-size 8192
  $ ollm --api openai --base-url http://127.0.0.1:8080/v1 --model local
  $ ollm --session 20261130-061702-3f2a
  $ ollm --session 20261130-061702-3f2a --force
  $ ollm --context-size 8192 --reply-reserve 1_024
  $ printf 'hello\\n/status\\n' | ollm --context-size 2048`,
    )
    .action(async (options: ChatFlags) => {
      const stray = command.args[0];
      if (stray !== undefined) throw unknownCommand(command.parent ?? command, stray);
      const { io } = context;
      const globals = globalOptions(command);
      await runChat({
        io,
        flags: options,
        usePlugins: globals.plugins,
        debug: globals.debug,
        ...(context.registry ? { registry: context.registry } : {}),
        input: process.stdin,
        terminal: process.stdin.isTTY === true && process.stdout.isTTY === true,
        terminalOutput: process.stdout,
      });
    });
});

/** The error commander itself gives for a mistyped command, which the default command would otherwise swallow. */
function unknownCommand(program: Command, name: string): CommanderError {
  const names = program.commands.map((command) => command.name());
  const suggestion = closestMatch(name, names);
  return new CommanderError(1, 'commander.unknownCommand', `error: unknown command '${name}'${suggestion ? `\n(Did you mean ${suggestion}?)` : ''}`);
}
