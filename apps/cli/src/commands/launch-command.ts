import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError } from '@ollm/core';
import type { CommandContext } from '../command-context.js';
import { defineCommand } from './define-command.js';
import { openServe, type ServeOptions } from './serve-command.js';

/** What `ollm launch` knows when it points an agent at the proxy. */
interface AgentContext {
  /** The proxy's origin, e.g. `http://127.0.0.1:40123` (no `/v1`). */
  readonly url: string;
  /** `--model`, the model's name on the upstream. */
  readonly model: string | undefined;
  /** The upstream's API (`--api`): `ollama` or `openai` (llama.cpp, vLLM, LM Studio). */
  readonly api: 'ollama' | 'openai';
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A folder of this run, removed when the agent exits: for the config files an agent reads only from a file. */
  readonly folder: () => string;
}

/** How the agent is started: its environment and the arguments before the user's own. */
interface AgentLaunch {
  readonly env: Record<string, string>;
  readonly args: string[];
}

/**
 * How each agent is pointed at a base URL, read from its own docs and checked by running it
 * (internal/agents-smoke: Claude Code 2.1, Codex 0.171, opencode 1.18, Cline 3.0, pi 0.73).
 */
interface AgentSetup {
  /** The executable, looked up on PATH. */
  readonly binary: string;
  /** The agent can be pointed at a model only with its name (a provider entry it reads from config). */
  readonly needsModel?: boolean;
  launch(context: AgentContext): AgentLaunch;
}

/** A TOML basic string (Codex's `-c key=value` values are TOML). */
const toml = (text: string) => JSON.stringify(text);

const AGENTS: Readonly<Record<string, AgentSetup>> = {
  // Claude Code: /v1/messages at ANTHROPIC_BASE_URL. Its side requests (titles, topic checks, sub-agents)
  // go to a Haiku model unless told otherwise: with --model they go to the same local model.
  claude: {
    binary: 'claude',
    launch: ({ url, model, env }) => ({
      env: {
        ANTHROPIC_BASE_URL: url,
        ANTHROPIC_AUTH_TOKEN: env['ANTHROPIC_AUTH_TOKEN'] ?? 'ollm-local',
        ...(model === undefined ? {} : { ANTHROPIC_DEFAULT_HAIKU_MODEL: model, ANTHROPIC_SMALL_FAST_MODEL: model, CLAUDE_CODE_SUBAGENT_MODEL: model }),
      },
      args: model === undefined ? [] : ['--model', model],
    }),
  },
  // Codex speaks only the Responses API (`wire_api = "chat"` is refused). `--oss` would ask the
  // upstream for Ollama's /api/tags and /api/pull; a provider of its own (config overrides on the
  // command line, nothing written to ~/.codex) works in front of Ollama and llama.cpp alike.
  codex: {
    binary: 'codex',
    launch: ({ url, model }) => ({
      env: {},
      args: [
        '-c',
        'model_provider="ollm"',
        '-c',
        'model_providers.ollm.name="ollm serve"',
        '-c',
        `model_providers.ollm.base_url=${toml(`${url}/v1`)}`,
        '-c',
        'model_providers.ollm.wire_api="responses"',
        ...(model === undefined ? [] : ['-c', `model=${toml(model)}`]),
      ],
    }),
  },
  // opencode reads no base-URL variable: a provider (@ai-sdk/openai-compatible, /v1/chat/completions)
  // is given in OPENCODE_CONFIG_CONTENT, merged over the user's own config, with the model chosen.
  opencode: {
    binary: 'opencode',
    needsModel: true,
    launch: ({ url, model }) => ({
      env: {
        OPENCODE_CONFIG_CONTENT: JSON.stringify({
          provider: {
            ollm: {
              npm: '@ai-sdk/openai-compatible',
              name: 'ollm serve',
              options: { baseURL: `${url}/v1`, apiKey: 'ollm-local' },
              models: { [model!]: { name: model, tool_call: true } },
            },
          },
          model: `ollm/${model!}`,
        }),
      },
      args: [],
    }),
  },
  // Cline takes a base URL only from its saved provider settings (`cline auth -b`, and for
  // OpenAI-compatible providers only): a data dir of this run holds them (Ollama's provider, /api/chat,
  // in front of Ollama; the OpenAI-compatible one, /v1/chat/completions, in front of the others).
  cline: {
    binary: 'cline',
    needsModel: true,
    launch: ({ url, model, api, folder }) => {
      const dataDir = folder();
      const provider = api === 'ollama' ? 'ollama' : 'openai-compatible';
      const settings = { provider, apiKey: 'ollm-local', model, baseUrl: api === 'ollama' ? url : `${url}/v1` };
      mkdirSync(join(dataDir, 'settings'), { recursive: true });
      writeFileSync(
        join(dataDir, 'settings', 'providers.json'),
        JSON.stringify(
          {
            version: 1,
            lastUsedProvider: provider,
            modes: {},
            providers: { [provider]: { settings, updatedAt: new Date().toISOString(), tokenSource: 'manual' } },
          },
          null,
          2,
        ),
      );
      return { env: {}, args: ['--data-dir', dataDir, '-P', provider, '-m', model!] };
    },
  },
  // pi reads custom providers from ~/.pi/agent/models.json: an extension of this run registers one
  // instead (pi -e), /v1/chat/completions, without touching the user's files.
  pi: {
    binary: 'pi',
    needsModel: true,
    launch: ({ url, model, folder }) => {
      const extension = join(folder(), 'ollm-provider.mjs');
      // An extension's models get none of models.json's defaults: they are written out (pi's documented defaults).
      const entry = {
        id: model,
        name: model,
        reasoning: false,
        input: ['text'],
        cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
        contextWindow: 128_000,
        maxTokens: 16_384,
      };
      const provider = { name: 'ollm serve', baseUrl: `${url}/v1`, apiKey: 'ollm-local', api: 'openai-completions', models: [entry] };
      writeFileSync(extension, `export default function (pi) {\n  pi.registerProvider('ollm', ${JSON.stringify(provider)});\n}\n`);
      return { env: {}, args: ['-e', extension, '--provider', 'ollm', '--model', model!] };
    },
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
and stops the proxy when the agent exits. Every request the agent sends fits the model's window;
the agent is not changed. How each agent is pointed at it:
  claude    ANTHROPIC_BASE_URL (/v1/messages); --model, also for its Haiku side requests
  codex     a provider given as -c overrides (/v1/responses); --model as -c model=...
  opencode  a provider in OPENCODE_CONFIG_CONTENT (/v1/chat/completions); needs --model
  cline     its provider settings in a --data-dir of this run (/api/chat in front of Ollama,
            /v1/chat/completions otherwise); needs --model
  pi        a provider registered by an extension of this run (pi -e; /v1/chat/completions);
            needs --model
Files of the run (cline's data dir, pi's extension) are removed when the agent exits.

Examples:
  $ ollm launch claude --model qwen3-coder:30b --window 32768 -- -p "fix the failing test"
  $ ollm launch codex --model gpt-oss:20b --window 32768 -- exec "fix the failing test"
  $ ollm launch opencode --model qwen3-coder:30b --window 32768 -- run "fix the failing test"
  $ ollm launch cline --model qwen3-coder:30b --window 32768 -- --yolo "fix the failing test"
  $ ollm launch pi --model qwen3-coder:30b --upstream http://127.0.0.1:8080/v1 -- -p "fix it"
`,
    )
    .action(async (agentName: string, agentArguments: string[], options: LaunchOptions) => {
      const { io } = context;
      const agent = AGENTS[agentName];
      if (!agent) {
        throw new InvalidArgumentError({ argument: 'agent', message: `Unknown agent "${agentName}". Agents: ${Object.keys(AGENTS).join(', ')}.` });
      }
      const { model, ...serve } = options;
      if (agent.needsModel && model === undefined) {
        throw new InvalidArgumentError({
          argument: 'model',
          message: `${agent.binary} needs --model: the model's name on the upstream (its provider entry names it).`,
        });
      }
      const proxy = await openServe({ ...serve, port: '0' }, command, context, { quiet: true });
      let folder: string | undefined;
      let code: number;
      try {
        const api = / \(openai\) · /.test(proxy.description) ? 'openai' : 'ollama';
        const launch = agent.launch({
          url: proxy.server.url,
          model,
          api,
          env: io.env,
          folder: () => (folder ??= mkdtempSync(join(tmpdir(), `ollm-launch-${agentName}-`))),
        });
        const argv = [...launch.args, ...agentArguments];
        io.stderr.write(`ollm launch: ${agent.binary} through ollm serve on ${proxy.server.url} -> ${proxy.description}\n`);
        code = await run(agent.binary, argv, { ...process.env, ...io.env, ...launch.env }, io.cwd, io.signal);
      } finally {
        await proxy.close();
        if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
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
