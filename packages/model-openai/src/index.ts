export type { OpenAILanguageModel, OpenAIModelSettings } from './openai-model.js';
export { DEFAULT_OPENAI_BASE_URL, DEFAULT_OPENAI_TIMEOUT_MS, LOCAL_API_KEY, createOpenAIModel } from './openai-model.js';
export type { OpenAIProvider, OpenAIProviderSettings } from './openai-provider.js';
export { createOpenAI, openai } from './openai-provider.js';
export { OPENAI_HINT, redactApiKey } from './openai-error.js';
export { toOpenAIMessages } from './to-openai-messages.js';
