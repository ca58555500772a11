import type { OpenAILanguageModel, OpenAIModelSettings } from './openai-model.js';
import { createOpenAIModel } from './openai-model.js';

export type OpenAIProviderSettings = Omit<OpenAIModelSettings, 'model'>;

export interface OpenAIProvider {
  (model: string, settings?: OpenAIProviderSettings): OpenAILanguageModel;
}

/** A provider: call it with a model name to get a LanguageModel on that server. */
export function createOpenAI(defaults: OpenAIProviderSettings = {}): OpenAIProvider {
  return (model, settings = {}) => createOpenAIModel({ ...defaults, ...settings, model });
}

/** The default provider: `OPENAI_BASE_URL` / `OPENAI_API_KEY` from the environment, read per model. */
export const openai: OpenAIProvider = createOpenAI();
