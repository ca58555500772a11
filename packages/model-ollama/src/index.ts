export type { OllamaLanguageModel, OllamaModelSettings, OllamaModelSummary } from './ollama-model.js';
export { DEFAULT_NUM_CTX, DEFAULT_OLLAMA_HOST, DEFAULT_OLLAMA_TIMEOUT_MS, OLLAMA_HINT, createOllamaModel, resolveOllamaHost } from './ollama-model.js';
export type { OllamaProvider, OllamaProviderSettings } from './ollama-provider.js';
export { createOllama, ollama } from './ollama-provider.js';
export { toOllamaMessages } from './to-ollama-messages.js';
