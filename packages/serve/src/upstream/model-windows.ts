import { formatInteger, errorCode, FALLBACK_MODEL_CONTEXT_TOKENS, ModelUnavailableError, type LanguageModel, type Logger } from '@ollm/core';
import { createOllamaModel } from '@ollm/model-ollama';
import { createOpenAIModel, LOCAL_API_KEY } from '@ollm/model-openai';
import type { Upstream } from './upstream.js';
import { upstreamUnavailable } from './upstream-errors.js';

/**
 * The window Ollama runs a model with when a request sets no `num_ctx` (its documented default;
 * `OLLAMA_CONTEXT_LENGTH` on the server changes it, and then `--window` should say so).
 */
export const OLLAMA_SERVER_DEFAULT_WINDOW = 4096;

/** Where a model's window came from, for the header and the log. */
export type WindowSource = 'flag' | 'request' | 'server' | 'fallback';

export interface ModelWindow {
  readonly tokens: number;
  readonly source: WindowSource;
}

export interface ModelWindowsOptions {
  readonly upstream: Upstream;
  /** `--window`: wins over anything the server or the request says. */
  readonly window?: number;
  readonly logger: Logger;
  /** How long asking the server may take. */
  readonly timeoutMs?: number;
}

/**
 * Learns each model's window from the upstream, the way ollm's model clients do (Ollama's
 * `/api/show`; an OpenAI-compatible server's `/v1/models`, and llama.cpp's `/props`), once per
 * model. A request's own `num_ctx` (Ollama) is the window that request runs with. A server that
 * does not say leaves the fallback (8,192), with one warning per model.
 */
export class ModelWindows {
  readonly #options: ModelWindowsOptions;
  readonly #known = new Map<string, Promise<ModelWindow>>();

  constructor(options: ModelWindowsOptions) {
    this.#options = options;
  }

  async windowFor(model: string, request: { readonly requestedWindow?: number; readonly apiKey?: string }): Promise<ModelWindow> {
    if (this.#options.window !== undefined) return { tokens: this.#options.window, source: 'flag' };
    const { upstream } = this.#options;
    if (request.requestedWindow !== undefined) {
      if (upstream.api !== 'ollama') return { tokens: request.requestedWindow, source: 'request' };
      // Ollama runs the model with num_ctx, capped by what it was trained for.
      const trained = await this.#described(model, request.requestedWindow, request.apiKey);
      return { tokens: Math.min(trained.tokens, request.requestedWindow), source: 'request' };
    }
    return this.#described(model, OLLAMA_SERVER_DEFAULT_WINDOW, request.apiKey);
  }

  #described(model: string, ollamaWindow: number, apiKey: string | undefined): Promise<ModelWindow> {
    const key = `${model}\n${ollamaWindow}`;
    let known = this.#known.get(key);
    if (!known) {
      known = this.#ask(model, ollamaWindow, apiKey);
      this.#known.set(key, known);
      // A failure is not kept: the next request asks again.
      known.catch(() => this.#known.delete(key));
    }
    return known;
  }

  async #ask(model: string, ollamaWindow: number, apiKey: string | undefined): Promise<ModelWindow> {
    const { upstream, logger, timeoutMs } = this.#options;
    const settings = { model, maxRetries: 0, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
    const client: LanguageModel =
      upstream.api === 'ollama'
        ? createOllamaModel({ ...settings, host: upstream.origin, numCtx: ollamaWindow })
        : createOpenAIModel({ ...settings, baseURL: `${upstream.origin}/v1`, apiKey: apiKey ?? LOCAL_API_KEY });
    try {
      const { contextLength } = (await client.describe?.()) ?? {};
      if (contextLength !== undefined && contextLength > 0) return { tokens: contextLength, source: 'server' };
    } catch (error) {
      // An upstream that cannot be reached fails the request (502); nothing is learnt or kept.
      if (ModelUnavailableError.isInstance(error)) throw upstreamUnavailable(upstream.display, { code: errorCode(error.cause) });
      logger.warn(
        `ollm serve: could not learn the window of ${model} from ${upstream.display} (${error instanceof Error ? error.message : String(error)}); assuming ${formatInteger(FALLBACK_MODEL_CONTEXT_TOKENS)} tokens (set --window)`,
      );
      return { tokens: FALLBACK_MODEL_CONTEXT_TOKENS, source: 'fallback' };
    }
    logger.warn(
      `ollm serve: ${upstream.display} does not say how large the window of ${model} is; assuming ${formatInteger(FALLBACK_MODEL_CONTEXT_TOKENS)} tokens (set --window)`,
    );
    return { tokens: FALLBACK_MODEL_CONTEXT_TOKENS, source: 'fallback' };
  }
}
