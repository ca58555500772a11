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
  /**
   * Ollama, no `num_ctx`: the window is its default (4,096) because the model was not loaded when
   * asked; once a request without `num_ctx` has loaded it, `/api/ps` tells the window it runs with.
   */
  readonly assumedDefault?: boolean;
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
 * `/api/show`, and `/api/ps` for the window a model is loaded with; an OpenAI-compatible server's
 * `/v1/models`, and llama.cpp's `/props`), once per model (for Ollama without `num_ctx`: once more
 * after a request has loaded the model). A request's own `num_ctx` (Ollama) is the window that request runs with. A server that
 * does not say leaves the fallback (8,192), with one warning per model.
 */
export class ModelWindows {
  readonly #options: ModelWindowsOptions;
  readonly #known = new Map<string, Promise<ModelWindow>>();
  /** Models a request without `num_ctx` went to since their window was assumed: Ollama loaded them with its default. */
  readonly #loadedByDefault = new Set<string>();

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
    const known = await this.#described(model, OLLAMA_SERVER_DEFAULT_WINDOW, request.apiKey);
    if (!known.assumedDefault || !this.#loadedByDefault.has(model)) return known;
    // The model is loaded now, by a request like this one: ask once more, for the window it runs with.
    this.#loadedByDefault.delete(model);
    this.#known.delete(`${model}\n${OLLAMA_SERVER_DEFAULT_WINDOW}`);
    const asked = await this.#described(model, OLLAMA_SERVER_DEFAULT_WINDOW, request.apiKey, true);
    if (asked.tokens !== known.tokens)
      this.#options.logger.info(
        `ollm serve: ${model} runs with a ${formatInteger(asked.tokens)}-token window on ${this.#options.upstream.display} (its /api/ps), not the ${formatInteger(known.tokens)} assumed`,
      );
    return asked;
  }

  /**
   * A chat without `num_ctx` went upstream for `model`: Ollama has loaded it with the window such
   * requests run with, which `/api/ps` then reports (asked at the next request, once).
   */
  noteServed(model: string, request: { readonly requestedWindow?: number }): void {
    if (this.#options.upstream.api !== 'ollama' || this.#options.window !== undefined || request.requestedWindow !== undefined) return;
    void this.#known.get(`${model}\n${OLLAMA_SERVER_DEFAULT_WINDOW}`)?.then(
      (known) => {
        if (known.assumedDefault) this.#loadedByDefault.add(model);
      },
      () => {},
    );
  }

  #described(model: string, ollamaWindow: number, apiKey: string | undefined, trustLoaded = false): Promise<ModelWindow> {
    const key = `${model}\n${ollamaWindow}`;
    let known = this.#known.get(key);
    if (!known) {
      known = this.#ask(model, ollamaWindow, apiKey, trustLoaded);
      this.#known.set(key, known);
      // A failure is not kept: the next request asks again.
      known.catch(() => this.#known.delete(key));
    }
    return known;
  }

  async #ask(model: string, ollamaWindow: number, apiKey: string | undefined, trustLoaded: boolean): Promise<ModelWindow> {
    const { upstream, logger, timeoutMs } = this.#options;
    const settings = { model, maxRetries: 0, ...(timeoutMs !== undefined ? { timeoutMs } : {}) };
    const client: LanguageModel =
      upstream.api === 'ollama'
        ? createOllamaModel({ ...settings, host: upstream.origin, numCtx: ollamaWindow })
        : createOpenAIModel({ ...settings, baseURL: `${upstream.origin}/v1`, apiKey: apiKey ?? LOCAL_API_KEY });
    try {
      const described: { contextLength?: number; trainedContextLength?: number; loadedContextLength?: number } = (await client.describe?.()) ?? {};
      const { contextLength, trainedContextLength, loadedContextLength } = described;
      if (upstream.api === 'ollama' && ollamaWindow === OLLAMA_SERVER_DEFAULT_WINDOW) {
        // No num_ctx: the model runs with the window it is loaded with (/api/ps) once a request
        // without num_ctx loaded it; before, it may be loaded with another client's num_ctx, which
        // such a request replaces with Ollama's default: that is assumed until then.
        if (trustLoaded && loadedContextLength !== undefined)
          return { tokens: trainedContextLength === undefined ? loadedContextLength : Math.min(trainedContextLength, loadedContextLength), source: 'server' };
        // Asked again and still not said (an Ollama older than /api/ps's context_length): the default stays, not asked again.
        if (contextLength !== undefined && contextLength > 0)
          return { tokens: contextLength, source: 'server', ...(trustLoaded ? {} : { assumedDefault: true }) };
      }
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
