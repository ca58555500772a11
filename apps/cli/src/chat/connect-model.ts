import type { LanguageModel, OllmConfig } from '@ollm/core';
import type { CliIo } from '../cli-io.js';
import { startSpinner } from '../output/progress-spinner.js';
import { FALLBACK_CONTEXT_SIZE } from './chat-settings.js';

export interface ConnectedModel {
  readonly model: LanguageModel;
  /** Where the model is served, for messages: `http://127.0.0.1:11434`. */
  readonly endpoint: string;
  /** The window the chat uses: the configured one, else the model's, else 16,384. */
  readonly contextSize: number;
  /** Ollama's `parameter_size` (`8.0B`), for the reliability score. */
  readonly parameterSize?: string;
}

/** How long the reachability check may take: a server that is up answers at once. */
const PROBE_TIMEOUT_MS = 15_000;

/**
 * Creates the model client and checks, before the first prompt, that the server answers (Ollama:
 * `/api/show`, which also gives the context length; OpenAI-compatible: `/models`). A server that
 * is not there raises the client's `ModelUnavailableError`, whose one-line message names the
 * address tried and what to start or set (exit code 3). The model packages load only here.
 */
export async function connectModel(io: CliIo, config: OllmConfig, configuredContextSize: number | undefined): Promise<ConnectedModel> {
  const spinner = startSpinner(io, `connecting to ${config.api === 'openai' ? (config.baseURL ?? 'the OpenAI API') : config.host}`);
  try {
    if (config.api === 'openai') return await connectOpenAI(config, configuredContextSize, io.signal);
    return await connectOllama(config, configuredContextSize, io.signal);
  } finally {
    spinner.stop();
  }
}

async function connectOllama(config: OllmConfig, configuredContextSize: number | undefined, signal: AbortSignal | undefined): Promise<ConnectedModel> {
  const { createOllamaModel } = await import('@ollm/model-ollama');
  const requested = configuredContextSize ?? FALLBACK_CONTEXT_SIZE;
  // No retries for the check: a refused connection is reported at once, not after backoff.
  const probe = createOllamaModel({ host: config.host, model: config.model, numCtx: requested, maxRetries: 0, timeoutMs: PROBE_TIMEOUT_MS });
  const described = await probe.describe(signal ? { abortSignal: signal } : {});
  const contextSize = configuredContextSize ?? described.contextLength ?? FALLBACK_CONTEXT_SIZE;
  const model = createOllamaModel({ host: config.host, model: config.model, numCtx: contextSize });
  return { model, endpoint: model.host, contextSize, ...(described.parameterSize ? { parameterSize: described.parameterSize } : {}) };
}

async function connectOpenAI(config: OllmConfig, configuredContextSize: number | undefined, signal: AbortSignal | undefined): Promise<ConnectedModel> {
  const { createOpenAIModel } = await import('@ollm/model-openai');
  const settings = {
    model: config.model,
    ...(config.baseURL ? { baseURL: config.baseURL } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
  };
  const probe = createOpenAIModel({ ...settings, maxRetries: 0, timeoutMs: PROBE_TIMEOUT_MS });
  await probe.listModels(signal ? { abortSignal: signal } : {});
  const model = createOpenAIModel(settings);
  // OpenAI-compatible servers do not report the window: the configured one, else the fallback.
  return { model, endpoint: model.baseURL, contextSize: configuredContextSize ?? FALLBACK_CONTEXT_SIZE };
}
