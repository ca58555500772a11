import type { LanguageModel } from '@ollm/core';
import type { OllmConfig } from '@ollm/runtime';
import type { CliIo } from '../cli-io.js';
import { createModelClient } from '../model/create-language-model.js';
import { probeModel } from '../model/probe-model.js';
import { modelSettingsFromConfig } from '../model/resolve-model-settings.js';
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

/**
 * Checks, before the first prompt, that the server answers (`probeModel`; exit code 3 with one
 * line when not), then creates the chat's model client with the window it will use.
 */
export async function connectModel(io: CliIo, config: OllmConfig, configuredContextSize: number | undefined): Promise<ConnectedModel> {
  const settings = modelSettingsFromConfig(config);
  const spinner = startSpinner(io, `connecting to ${config.api === 'openai' ? (config.baseURL ?? 'the OpenAI API') : config.host}`);
  try {
    // The probe asks Ollama for the window it would run with at the requested size.
    const probe = await probeModel({ ...settings, numCtx: configuredContextSize ?? FALLBACK_CONTEXT_SIZE }, io.signal);
    // OpenAI-compatible servers do not report the window: the configured one, else the fallback.
    const contextSize = configuredContextSize ?? probe.contextLength ?? FALLBACK_CONTEXT_SIZE;
    const client = createModelClient({ ...settings, numCtx: contextSize });
    const endpoint = client.api === 'openai' ? client.model.baseURL : client.model.host;
    return { model: client.model, endpoint, contextSize, ...(probe.parameterSize ? { parameterSize: probe.parameterSize } : {}) };
  } finally {
    spinner.stop();
  }
}
