import type { Command } from 'commander';
import { formatInteger, InvalidArgumentError, isPipelineProvider, providerUsesModel, type Logger } from '@ollm/core';
import { createOllamaModel } from '@ollm/model-ollama';
import { createOpenAIModel, LOCAL_API_KEY } from '@ollm/model-openai';
import { loadConfig } from '@ollm/runtime';
import { DEFAULT_SERVE_ADDRESS, DEFAULT_SERVE_PORT, openProxyStore, parseUpstream, startProxyServer, type UpstreamApi } from '@ollm/serve';
import { globalOptions, type CommandContext } from '../command-context.js';
import { oneLine } from '../exit-codes.js';
import { checkServerUrl, parseTimeoutSeconds } from '../model/server-url.js';
import { ollmHome, resolveLogdir } from '../ollm-home.js';
import { colorsFor } from '../output/colors.js';
import { loadProviders } from '../plugins.js';
import { collectProviderOption, parseProviderOptionFlags, unusedProviderOptions } from '../provider-options.js';
import { defineCommand } from './define-command.js';

export interface ServeOptions {
  readonly upstream?: string;
  readonly api?: string;
  readonly port?: string;
  readonly listen?: string;
  readonly pipeline?: string;
  readonly window?: string;
  readonly replyReserve?: string;
  readonly store?: string;
  readonly summaryModel?: string;
  readonly summaryUpstream?: string;
  readonly timeout?: string;
  readonly logdir?: string;
  readonly providerOption?: readonly string[];
}

const DEFAULT_UPSTREAM = 'http://127.0.0.1:11434';

/** `ollm serve`: named and described by the dispatcher (run-cli.ts). */
export const serveCommand = defineCommand((command: Command, context: CommandContext) => {
  command
    .option('--upstream <url>', `the model server to forward to (default: ${DEFAULT_UPSTREAM}, or OLLM_HOST)`)
    .option('--api <api>', 'how to ask the upstream for model windows: ollama or openai (default: ollama; an --upstream ending in /v1 means openai)')
    .option('--port <port>', `port to listen on (default: ${DEFAULT_SERVE_PORT}; 0 picks a free one)`)
    .option('--listen <address>', `address to listen on (default: ${DEFAULT_SERVE_ADDRESS}, loopback only)`)
    .option('--pipeline <stages>', 'how requests are compacted: a provider or a comma list (default: fold)')
    .option('--window <tokens>', "every model's window in tokens, over what the upstream says")
    .option('--reply-reserve <tokens>', 'tokens kept for the reply when a request sets no max_tokens / num_predict (default: 15% of the window)')
    .option('--store <store>', 'where compactions and removed content are kept: files (default) or a redis:// URL shared by several proxies')
    .option('--summary-model <name>', 'a model on the upstream for model stages in --pipeline (goal-aware, summarize); without it they are skipped')
    .option('--summary-upstream <url>', 'the server --summary-model runs on, when not the upstream (an URL ending in /v1 is OpenAI-compatible)')
    .option('--timeout <seconds>', 'how long the upstream may take to start answering (default: config timeout, else 300)')
    .option('--logdir <dir>', 'where removed content is saved (default: $OLLM_HOME or ~/.ollm)')
    .option(
      '--provider-option <provider.key=value>',
      "a provider's own option, over config providerOptions (repeatable; the value is JSON or text), e.g. fold.recentShare=50",
      collectProviderOption,
    )
    .addHelpText(
      'after',
      `
A proxy between any client of a model server (Open WebUI, Continue, aider, the openai and ollama
packages) and the server: chat requests (/v1/chat/completions, /api/chat) that do not fit the
model's window less the reply reserve are compacted before they are forwarded; everything else
is forwarded as it came. Responses are the upstream's, streamed through byte for byte, with an
x-ollm-context header saying what was done. The next turn of a conversation reuses the
compaction of its prefix, so only the new span is compacted. Removed content goes to the
recovery store: ollm recover <12 hex> prints it (with --store for Redis).

Examples:
  $ ollm serve                                                   # Ollama at 127.0.0.1:11434, serve on :11500
  $ OLLAMA_HOST=http://127.0.0.1:11500 ollama run llama3.1:8b    # any Ollama client, through the proxy
  $ ollm serve --upstream http://127.0.0.1:8000/v1 --port 8001   # vLLM / llama.cpp / LM Studio
  $ ollm serve --pipeline fold,goal-aware --summary-model qwen2.5:3b
  $ ollm serve --store redis://127.0.0.1:6379 --listen 0.0.0.0   # one of several replicas`,
    )
    .action(async (options: ServeOptions) => {
      const { io } = context;
      const proxy = await openServe(options, command, context, { quiet: false });
      io.stderr.write(`ollm serve: listening on ${proxy.server.url} -> ${proxy.description}\n`);
      await untilStopped(io.signal);
      await proxy.close();
      io.stderr.write('ollm serve: stopped\n');
    });
});

/** A running proxy, as `ollm serve` and `ollm launch` start it. */
export interface OpenedServe {
  readonly server: { readonly url: string };
  /** `<upstream> (<api>) · pipeline fold · store files`, and the window and summary model when set. */
  readonly description: string;
  close(): Promise<void>;
}

/**
 * Starts the proxy with `options` (the flags of `ollm serve`): the upstream, the pipeline, the
 * store and the logger. `quiet`: the per-request lines are left out (warnings still go to stderr),
 * for a proxy that runs under an agent's own screen.
 */
export async function openServe(
  options: ServeOptions,
  command: Command,
  context: CommandContext,
  { quiet }: { readonly quiet: boolean },
): Promise<OpenedServe> {
  const { io } = context;
  const flagOptions = options.providerOption && options.providerOption.length > 0 ? parseProviderOptionFlags(options.providerOption) : undefined;
  const { config } = await loadConfig({
    cwd: io.cwd,
    env: io.env as NodeJS.ProcessEnv,
    ...(flagOptions ? { overrides: { providerOptions: flagOptions } } : {}),
  });
  const upstreamText = checkServerUrl('upstream', options.upstream ?? io.env['OLLM_HOST'] ?? DEFAULT_UPSTREAM);
  const api = apiOf(options.api, upstreamText);
  const upstream = parseUpstream(upstreamText, api);
  const port = options.port !== undefined ? wholeNumber('port', options.port, 0, 65_535) : DEFAULT_SERVE_PORT;
  const window = options.window !== undefined ? wholeNumber('window', options.window, 256, 100_000_000) : undefined;
  const replyReserve = options.replyReserve !== undefined ? wholeNumber('reply-reserve', options.replyReserve, 16, 100_000_000) : undefined;
  const timeoutSeconds = options.timeout !== undefined ? parseTimeoutSeconds(options.timeout) : config.timeout;
  const { registry, available } = await loadProviders({
    io,
    usePlugins: globalOptions(command).plugins,
    provider: options.pipeline ?? 'fold',
    ...(context.registry ? { registry: context.registry } : {}),
  });
  const provider = registry.get(options.pipeline ?? 'fold');
  for (const warning of unusedProviderOptions(config.providerOptions, available)) io.stderr.write(`ollm: ${colorsFor(io).yellow('warning:')} ${warning}\n`);
  const stages = isPipelineProvider(provider) ? provider.stages : [provider];
  const timeoutMs = timeoutSeconds !== undefined ? Math.round(timeoutSeconds * 1000) : undefined;
  if (options.summaryUpstream !== undefined && options.summaryModel === undefined) {
    throw new InvalidArgumentError({ argument: 'summary-upstream', message: '--summary-upstream needs --summary-model: the model to run there.' });
  }
  const summaryUpstream = options.summaryUpstream !== undefined ? checkServerUrl('summary-upstream', options.summaryUpstream) : undefined;
  const summaryServer = summaryUpstream !== undefined ? parseUpstream(summaryUpstream, apiOf(undefined, summaryUpstream)) : upstream;
  const model = options.summaryModel
    ? summaryServer.api === 'ollama'
      ? createOllamaModel({ host: summaryServer.origin, model: options.summaryModel, ...(timeoutMs !== undefined ? { timeoutMs } : {}) })
      : createOpenAIModel({
          baseURL: `${summaryServer.origin}/v1`,
          model: options.summaryModel,
          apiKey: config.apiKey ?? LOCAL_API_KEY,
          ...(timeoutMs !== undefined ? { timeoutMs } : {}),
        })
    : undefined;
  if (!model && stages.some(providerUsesModel)) {
    io.stderr.write(
      `ollm: ${colorsFor(io).yellow('warning:')} ${stages
        .filter(providerUsesModel)
        .map((stage) => stage.name)
        .join(', ')} need a model: give --summary-model; until then only the other stages run\n`,
    );
  }
  const logdir = resolveLogdir(io, options.logdir);
  const store = await openProxyStore(options.store, { home: options.logdir ? logdir : ollmHome(io) });
  const debug = globalOptions(command).debug;
  const logger: Logger = {
    debug: (message) => (debug ? io.stderr.write(`${oneLine(message)}\n`) : undefined),
    info: (message) => (quiet ? undefined : io.stderr.write(`${oneLine(message)}\n`)),
    // The proxy's messages name it already (`ollm serve: ...`): one prefix, then the warning.
    warn: (message) => io.stderr.write(`ollm serve: ${colorsFor(io).yellow('warning:')} ${oneLine(message.replace(/^ollm serve: /, ''))}\n`),
  };
  let server;
  try {
    server = await startProxyServer({
      upstream: upstream.origin,
      api,
      ...(options.listen !== undefined ? { address: options.listen } : {}),
      port,
      stages,
      pipeline: stages.map((stage) => stage.name).join(','),
      providerOptions: config.providerOptions,
      ...(model ? { model } : {}),
      store,
      logdir,
      ...(window !== undefined ? { window } : {}),
      ...(replyReserve !== undefined ? { replyReserve } : {}),
      shape: config.compaction.shape,
      logger,
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
  } catch (error) {
    await store.close();
    throw listenError(error, options.listen ?? DEFAULT_SERVE_ADDRESS, port);
  }
  const summary = model ? ` · summary model ${options.summaryModel} on ${summaryServer.display}` : '';
  const opened = server;
  return {
    server: opened,
    description: `${upstream.display} (${api}) · pipeline ${stages.map((stage) => stage.name).join(',')} · store ${store.kind}${window !== undefined ? ` · window ${window}` : ''}${summary}`,
    async close() {
      await opened.close();
      await store.close();
    },
  };
}

function apiOf(flag: string | undefined, upstream: string): UpstreamApi {
  if (flag === undefined) return /\/v1\/?$/.test(new URL(upstream).pathname) ? 'openai' : 'ollama';
  if (flag === 'ollama' || flag === 'openai') return flag;
  throw new InvalidArgumentError({ argument: 'api', message: `Unknown --api ${JSON.stringify(flag)}. APIs: ollama, openai.` });
}

function wholeNumber(flag: string, text: string, minimum: number, maximum: number): number {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(value) || value < minimum || value > maximum) {
    throw new InvalidArgumentError({
      argument: flag,
      message: `Invalid --${flag} "${text}": use a whole number from ${minimum} to ${formatInteger(maximum)}.`,
    });
  }
  return value;
}

/** A port in use or an address not on this machine: exit 2 naming it, not a stack trace. */
function listenError(error: unknown, address: string, port: number): unknown {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === 'EADDRINUSE')
    return new InvalidArgumentError({ argument: 'port', message: `Port ${port} on ${address} is already in use: give another with --port.` });
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EACCES') {
    return new InvalidArgumentError({ argument: 'listen', message: `Cannot listen on ${address}:${port} (${String(code)}).` });
  }
  return error;
}

/** Resolves on Ctrl-C (the CLI's signal) or SIGTERM. */
export function untilStopped(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolve();
    };
    if (signal?.aborted) return resolve();
    signal?.addEventListener('abort', stop, { once: true });
    process.once('SIGTERM', stop);
  });
}
