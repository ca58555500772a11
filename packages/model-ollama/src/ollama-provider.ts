import type { OllamaLanguageModel, OllamaModelSettings, OllamaModelSummary } from './ollama-model.js';
import { displayURL } from '@ollm/core';
import { createOllamaModel, resolveOllamaHost } from './ollama-model.js';

/** Settings shared by every model of one provider instance. */
export type OllamaProviderSettings = Omit<OllamaModelSettings, 'model'>;

export interface OllamaProvider {
  (model: string, settings?: OllamaProviderSettings): OllamaLanguageModel;
  /** The host requests go to (read when called, so `OLLM_HOST` set later is honoured). */
  readonly host: string;
  listModels(options?: { abortSignal?: AbortSignal }): Promise<OllamaModelSummary[]>;
}

/** A provider: call it with a model name to get a LanguageModel on that server. */
export function createOllama(defaults: OllamaProviderSettings = {}): OllamaProvider {
  const provider = (model: string, settings: OllamaProviderSettings = {}) => createOllamaModel({ ...defaults, ...settings, model });
  Object.defineProperty(provider, 'host', { get: () => displayURL(resolveOllamaHost(defaults.host)), enumerable: true });
  return Object.assign(provider, {
    listModels: (options?: { abortSignal?: AbortSignal }) => createOllamaModel({ ...defaults, model: '' }).listModels(options),
  }) as OllamaProvider;
}

/** The default provider: host from `OLLM_HOST`, else http://127.0.0.1:11434. */
export const ollama: OllamaProvider = createOllama();
