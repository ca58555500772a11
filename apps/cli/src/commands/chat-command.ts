import { CommanderError, type Command } from 'commander';
import type { ChatFlags } from '../chat/chat-settings.js';
import { closestMatch } from '../chat/closest-match.js';
import { globalOptions, type CommandContext } from '../command-context.js';

/** For the root help: the chat options, since a bare `ollm` starts the chat. */
export const rootChatHelp = `
Chat options (\`ollm [options]\` is \`ollm chat [options]\`):
  --provider <name>      model-based provider automatic compression ends with, or a pipeline (default: goal-aware)
  --model <name>         model (default: llama3.2:3b, or OLLM_MODEL)
  --host <url>           Ollama server (default: http://127.0.0.1:11434, or OLLM_HOST)
  --api <ollama|openai>  model API (default: ollama)
  --base-url <url>       OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1 (implies --api openai)
  --context-size <n>     window in tokens (default: the model's, else 16,384)
  --reply-reserve <n>    tokens kept back for the model's reply (default: 15% of the window)
  --session <id>         resume this session (or start one with this id)
  --force                take over the session even if another running ollm holds it`;

/**
 * `ollm chat`, the default command: a bare `ollm [chat options]` lands here. A first word that is
 * no command (`ollm compcat`) is reported as an unknown command with a suggestion, as before.
 */
export function registerChatCommand(program: Command, context: CommandContext): void {
  program
    .command('chat', { isDefault: true })
    .description('Chat with a model inside a fixed context window (the default: `ollm` alone starts it).')
    .option('--provider <name>', 'model-based provider automatic compression ends with, or a pipeline (default: goal-aware)')
    .option('--model <name>', 'model name (default: llama3.2:3b, or OLLM_MODEL)')
    .option('--host <url>', 'Ollama server (default: http://127.0.0.1:11434, or OLLM_HOST)')
    .option('--api <api>', 'model API: ollama or openai (default: ollama)')
    .option('--base-url <url>', 'OpenAI-compatible server, e.g. http://127.0.0.1:8080/v1 (implies --api openai)')
    .option('--context-size <tokens>', "window in tokens (default: the model's context length, else 16,384)")
    .option('--reply-reserve <tokens>', "tokens kept back for the model's reply (default: compression.replyReserve, else 15% of the window)")
    .option('--session <id>', 'resume this session (or start one with this id)')
    .option('--force', 'take over the session even if another running ollm holds it')
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
    .action(async (options: ChatFlags, command: Command) => {
      const stray = command.args[0];
      if (stray !== undefined) throw unknownCommand(program, stray);
      const { io } = context;
      const { runChat } = await import('../chat/run-chat.js');
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
}

/** The error commander itself gives for a mistyped command, which the default command would otherwise swallow. */
function unknownCommand(program: Command, name: string): CommanderError {
  const names = program.commands.map((command) => command.name());
  const suggestion = closestMatch(name, names);
  return new CommanderError(1, 'commander.unknownCommand', `error: unknown command '${name}'${suggestion ? `\n(Did you mean ${suggestion}?)` : ''}`);
}
