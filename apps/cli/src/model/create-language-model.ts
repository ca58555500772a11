import type { LanguageModel } from '@ollm/core';
import type { CliIo } from '../cli-io.js';

/** The wire protocols `--api` chooses between. */
export const MODEL_APIS = ['ollama', 'openai'] as const;
export type ModelApi = (typeof MODEL_APIS)[number];

export interface LanguageModelOptions {
  readonly io: CliIo;
  readonly api: ModelApi;
  readonly model: string;
  /** `--host`: the Ollama host. */
  readonly host?: string;
  /** `--base-url`: the OpenAI-compatible base URL (`--host` is accepted there too). */
  readonly baseURL?: string;
}

/**
 * The model for model-based providers (summarize, goal-aware). The clients are imported only
 * here, when `--model` is given. Settings come from the injected environment, not
 * `process.env`, so that tests and embedders control them.
 */
export async function createLanguageModel(options: LanguageModelOptions): Promise<LanguageModel> {
  const { env } = options.io;
  if (options.api === 'openai') {
    const { createOpenAIModel } = await import('@ollm/model-openai');
    const baseURL = options.baseURL ?? options.host ?? env['OPENAI_BASE_URL'];
    const apiKey = env['OPENAI_API_KEY'];
    return createOpenAIModel({ model: options.model, ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}) });
  }
  const { createOllamaModel } = await import('@ollm/model-ollama');
  const host = options.host ?? env['OLLM_HOST'];
  return createOllamaModel({ model: options.model, ...(host ? { host } : {}) });
}
