import type { OllmConfig } from '@ollm/runtime';
import type { ModelApi, ModelSettings } from './model-settings.js';

/** The model flags of a command, before the environment is applied. */
export interface ModelFlags {
  readonly api: ModelApi;
  readonly model: string;
  /** `--host`: the Ollama host; with `--api openai` it is taken as the base URL. */
  readonly host?: string;
  /** `--base-url`: the OpenAI-compatible base URL. */
  readonly baseURL?: string;
  /** `--timeout`, in milliseconds. */
  readonly timeoutMs?: number;
}

/**
 * Flags > environment (`OLLM_HOST`, `OPENAI_BASE_URL`, `OPENAI_API_KEY`) > the client's defaults,
 * the same order `loadConfig` applies for the chat. The environment is the injected one, not
 * `process.env`, so that tests and embedders control it.
 */
export function resolveModelSettings(flags: ModelFlags, env: Readonly<Record<string, string | undefined>>): ModelSettings {
  const timeout = flags.timeoutMs !== undefined ? { timeoutMs: flags.timeoutMs } : {};
  if (flags.api === 'openai') {
    const baseURL = flags.baseURL ?? flags.host ?? env['OPENAI_BASE_URL'];
    const apiKey = env['OPENAI_API_KEY'];
    return { api: 'openai', model: flags.model, ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}), ...timeout };
  }
  const host = flags.host ?? env['OLLM_HOST'];
  return { api: 'ollama', model: flags.model, ...(host ? { host } : {}), ...timeout };
}

/** The model settings of a loaded config: `loadConfig` has already layered flags, environment and files. */
export function modelSettingsFromConfig(config: OllmConfig): ModelSettings {
  const timeout = config.timeout !== undefined ? { timeoutMs: Math.round(config.timeout * 1000) } : {};
  if (config.api === 'openai') {
    return {
      api: 'openai',
      model: config.model,
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
      ...(config.apiKey ? { apiKey: config.apiKey } : {}),
      ...timeout,
    };
  }
  return { api: 'ollama', model: config.model, host: config.host, ...timeout };
}
