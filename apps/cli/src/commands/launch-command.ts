import { spawn } from 'node:child_process';
import type { Command } from 'commander';
import { InvalidArgumentError } from '@ollm/core';
import type { CommandContext } from '../command-context.js';
import { defineCommand } from './define-command.js';
import { openServe, type ServeOptions } from './serve-command.js';

/** How each agent is pointed at a base URL (its own variables, read from its docs and sources). */
interface AgentSetup {
  /** The executable, looked up on PATH. */
  readonly binary: string;
  /** Environment for the agent, given the proxy's URL. */
  environment(url: string, env: Readonly<Record<string, string | undefined>>): Record<string, string>;
  /** Arguments before the user's own, given `--model`. */
  modelArguments(model: string | undefined): string[];
}

const AGENTS: Readonly<Record<string, AgentSetup>> = {
  claude: {
    binary: 'claude',
    environment: (url, env) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_AUTH_TOKEN: env['ANTHROPIC_AUTH_TOKEN'] ?? 'ollm-local' }),
    modelArguments: (model) => (model === undefined ? [] : ['--model', model]),
  },
  codex: {
    binary: 'codex',
    environment: (url) => ({ CODEX_OSS_BASE_URL: `${url}/v1`, OPENAI_BASE_URL: `${url}/v1` }),
    modelArguments: (model) => ['--oss', ...(model === undefined ? [] : ['-m', model])],
  },
  opencode: {
    binary: 'opencode',
    environment: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OLLAMA_HOST: url }),
    modelArguments: (model) => (model === undefined ? [] : ['--model', model]),
  },
  cline: {
    binary: 'cline',
    environment: (url) => ({ OLLAMA_HOST: url, OPENAI_BASE_URL: `${url}/v1` }),
    modelArguments: () => [],
  },
  pi: {
    binary: 'pi',
    environment: (url) => ({ OPENAI_BASE_URL: `${url}/v1`, OLLAMA_HOST: url }),
    modelArguments: (model) => (model === undefined ? [] : ['--model', model]),
  },
};

interface LaunchOptions extends Pick<ServeOptions, 'upstream' | 'api' | 'pipeline' | 'window' | 'replyReserve' | 'store' | 'timeout' | 'logdir'> {
  readonly model?: string;
}

/** `ollm launch`: named and described by the dispatcher (run-cli.ts). */
export const launchCommand = defineCommand((command: Command, context: CommandContext) => {
  command
    .argument('<agent>', `the coding agent to run: ${Object.keys(AGENTS).join(', ')}`)
    .argument('[agentArguments...]', 'arguments for the agent, after --')
    .option('--upstream <url>', 'the model server (default: http://127.0.0.1:11434, or OLLM_HOST)')
    .option('--api <api>', 'how to ask the upstream for model windows: ollama or openai')
    .option('--model <name>', 'the model, passed to the agent in its own flag')
    .option('--window <tokens>', "every model's window in tokens, over what the upstream says")
    .option('--reply-reserve <tokens>', 'tokens kept for the reply (default: 15% of the window)')
    .option('--pipeline <stages>', 'how requests are compacted (default: fold)')
    .option('--store <store>', 'files (default) or a redis:// URL')
    .option('--timeout <seconds>', 'how long the upstream may take to start answering')
    .option('--logdir <dir>', 'where removed content is saved (default: $OLLM_HOME or ~/.ollm)')
    .addHelpText(
      'after',
      `
Starts \`ollm serve\` on a free loopback port in front of --upstream, runs the agent pointed at it
(its own base-URL variable: ANTHROPIC_BASE_URL for claude, CODEX_OSS_BASE_URL for codex --oss,
OPENAI_BASE_URL / OLLAMA_HOST for the others), and stops the proxy when the agent exits. Every
request the agent sends fits the model's window; the agent is not changed.

Examples:
  $ ollm launch claude --model qwen3-coder:30b --window 32768
  $ ollm launch codex --model gpt-oss:20b -- exec "fix the failing test"
  $ ollm launch opencode --upstream http://127.0.0.1:8080/v1`,
    )
    .action(async (agentName: string, agentArguments: string[], options: LaunchOptions) => {
      const { io } = context;
      const agent = AGENTS[agentName];
      if (!agent) {
        throw new InvalidArgumentError({ argument: 'agent', message: `Unknown agent "${agentName}". Agents: ${Object.keys(AGENTS).join(', ')}.` });
      }
      const { model, ...serve } = options;
      const proxy = await openServe({ ...serve, port: '0' }, command, context, { quiet: true });
      const argv = [...agent.modelArguments(model), ...agentArguments];
      io.stderr.write(`ollm launch: ${agent.binary} through ollm serve on ${proxy.server.url} -> ${proxy.description}\n`);
      let code: number;
      try {
        code = await run(agent.binary, argv, { ...process.env, ...io.env, ...agent.environment(proxy.server.url, io.env) }, io.cwd, io.signal);
      } finally {
        await proxy.close();
      }
      io.stderr.write(`ollm launch: ${agent.binary} exited with ${code}; the proxy is stopped\n`);
      if (code !== 0) throw new AgentExitError(agent.binary, code);
    });
});

/** The agent ended with a failure: `ollm launch` fails too, naming it. */
class AgentExitError extends Error {
  constructor(binary: string, code: number) {
    super(`${binary} exited with ${code}`);
    this.name = 'AgentExitError';
  }
}

/** Runs the agent on this terminal and resolves with its exit code (128 + signal when killed). */
function run(binary: string, argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string, signal: AbortSignal | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, argv, { stdio: 'inherit', env, cwd });
    const stop = () => child.kill('SIGINT');
    signal?.addEventListener('abort', stop, { once: true });
    child.on('error', (error: NodeJS.ErrnoException) => {
      signal?.removeEventListener('abort', stop);
      reject(
        error.code === 'ENOENT'
          ? new InvalidArgumentError({
              argument: 'agent',
              message: `${binary} is not installed (not found on PATH); install it first, e.g. npm i -g the agent's package.`,
            })
          : error,
      );
    });
    child.on('exit', (code, killed) => {
      signal?.removeEventListener('abort', stop);
      resolve(code ?? (killed ? 128 + 2 : 1));
    });
  });
}
