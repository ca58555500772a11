import type { LanguageModel } from '@ollm/core';
import type { OllamaLanguageModel } from '@ollm/model-ollama';
import type { OpenAILanguageModel } from '@ollm/model-openai';
import type { ModelSettings } from './model-settings.js';

/** A created client, tagged with its protocol so callers can use its protocol-specific methods. */
export type ModelClient = { readonly api: 'ollama'; readonly model: OllamaLanguageModel } | { readonly api: 'openai'; readonly model: OpenAILanguageModel };

/** How a client retries and waits; unset: the client package's defaults. */
export interface ModelRequestOptions {
  readonly maxRetries?: number;
  readonly timeoutMs?: number;
}

/**
 * The one place model clients are created. The model packages are imported only here, on
 * demand, so commands that use no model (and `ollm --help`) do not load them.
 */
export async function createModelClient(settings: ModelSettings, request: ModelRequestOptions = {}): Promise<ModelClient> {
  if (settings.api === 'openai') {
    const { createOpenAIModel } = await import('@ollm/model-openai');
    const model = createOpenAIModel({
      model: settings.model,
      ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
      ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      ...request,
    });
    return { api: 'openai', model };
  }
  const { createOllamaModel } = await import('@ollm/model-ollama');
  const model = createOllamaModel({
    model: settings.model,
    ...(settings.host ? { host: settings.host } : {}),
    ...(settings.numCtx !== undefined ? { numCtx: settings.numCtx } : {}),
    ...request,
  });
  return { api: 'ollama', model };
}

/** The model for model-based providers (summarize, goal-aware). */
export async function createLanguageModel(settings: ModelSettings): Promise<LanguageModel> {
  return (await createModelClient(settings)).model;
}
