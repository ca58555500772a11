import type { LanguageModel } from '@ollm/core';
import { createOllamaModel, type OllamaLanguageModel } from '@ollm/model-ollama';
import { createOpenAIModel, type OpenAILanguageModel } from '@ollm/model-openai';
import type { ModelSettings } from './model-settings.js';

/** A created client, tagged with its protocol so callers can use its protocol-specific methods. */
export type ModelClient = { readonly api: 'ollama'; readonly model: OllamaLanguageModel } | { readonly api: 'openai'; readonly model: OpenAILanguageModel };

/** How a client retries and waits; unset: the client package's defaults. */
export interface ModelRequestOptions {
  readonly maxRetries?: number;
  readonly timeoutMs?: number;
}

/**
 * The one place model clients are created. Only the commands that talk to a model (chat,
 * compact) load this module, so the others (and `ollm --help`) do not load the model packages.
 */
export function createModelClient(settings: ModelSettings, request: ModelRequestOptions = {}): ModelClient {
  if (settings.api === 'openai') {
    const model = createOpenAIModel({
      model: settings.model,
      ...(settings.baseURL ? { baseURL: settings.baseURL } : {}),
      ...(settings.apiKey ? { apiKey: settings.apiKey } : {}),
      ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
      ...request,
    });
    return { api: 'openai', model };
  }
  const model = createOllamaModel({
    model: settings.model,
    ...(settings.host ? { host: settings.host } : {}),
    ...(settings.numCtx !== undefined ? { numCtx: settings.numCtx } : {}),
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
    ...request,
  });
  return { api: 'ollama', model };
}

/** The model for model-based providers (summarize, goal-aware). */
export function createLanguageModel(settings: ModelSettings): LanguageModel {
  return createModelClient(settings).model;
}
