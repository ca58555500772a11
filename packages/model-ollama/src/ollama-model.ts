import { Ollama } from 'ollama';
import type { ChatRequest } from 'ollama';
import type { LanguageModel, LanguageModelCallOptions, LanguageModelResult, ModelRetrySettings } from '@ollm/core';
import { ModelUnavailableError, displayURL, runModelCall } from '@ollm/core';
import type { OllamaAttemptState } from './ollama-error.js';
import { OLLAMA_HINT, toOllamaModelError, wrongShapeError } from './ollama-error.js';
import { guardNdjsonResponse } from './ndjson-guard.js';
import { toOllamaMessages } from './to-ollama-messages.js';

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';
/** Sent on every request: Ollama's own default window is small and it truncates silently. */
export const DEFAULT_NUM_CTX = 8192;
/** Local models can take minutes to load and answer on a CPU. */
export const DEFAULT_OLLAMA_TIMEOUT_MS = 300_000;

export interface OllamaModelSettings extends ModelRetrySettings {
  /** Default `OLLM_HOST`, else http://127.0.0.1:11434. */
  readonly host?: string;
  readonly model: string;
  /** Context window to run the model with (`num_ctx`); default 8192. */
  readonly numCtx?: number;
  /** Default output cap (`num_predict`) when a call sets no `maxOutputTokens`. */
  readonly numPredict?: number;
  /** How long Ollama keeps the model loaded, e.g. `5m` or seconds. */
  readonly keepAlive?: string | number;
  /** Total time for one call, retries included; default 300 s. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

export interface OllamaModelSummary {
  readonly name: string;
  readonly family?: string;
  readonly parameterSize?: string;
  readonly quantization?: string;
  readonly size?: number;
}

/** What Ollama says of a model (`/api/show`, and `/api/ps` when it is loaded). */
export interface OllamaModelDescription {
  /** The window a request with this client's `num_ctx` runs with: that, capped by the trained length. */
  readonly contextLength?: number;
  /** The length the model was trained for (`<architecture>.context_length`). */
  readonly trainedContextLength?: number;
  /**
   * The window the model is loaded with now, when Ollama (>= 0.11) reports it in `/api/ps`: what a
   * request that sets no `num_ctx` runs with (`OLLAMA_CONTEXT_LENGTH` or Ollama's own default).
   */
  readonly loadedContextLength?: number;
  readonly parameterSize?: string;
}

export interface OllamaLanguageModel extends LanguageModel {
  readonly provider: 'ollama';
  readonly host: string;
  describe(options?: { abortSignal?: AbortSignal }): Promise<OllamaModelDescription>;
  listModels(options?: { abortSignal?: AbortSignal }): Promise<OllamaModelSummary[]>;
}

/** The host requests go to: `host`, else `OLLM_HOST`, else the default; `http://` added when missing. */
export function resolveOllamaHost(host: string | undefined): string {
  const raw = host ?? process.env['OLLM_HOST'] ?? DEFAULT_OLLAMA_HOST;
  return raw.includes('://') ? raw : `http://${raw}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The window `model` is loaded with, from `/api/ps`; undefined when it is not loaded, or the server does not say (older Ollama). */
async function loadedWindow(client: Ollama, model: string): Promise<number | undefined> {
  let running: unknown;
  try {
    running = await client.ps();
  } catch {
    return undefined; // An older server or a proxy without /api/ps: nothing learnt.
  }
  if (!isRecord(running) || !Array.isArray(running['models'])) return undefined;
  const names = new Set([model, model.includes(':') ? model : `${model}:latest`]);
  for (const entry of running['models']) {
    if (!isRecord(entry) || !(names.has(String(entry['name'])) || names.has(String(entry['model'])))) continue;
    const length = entry['context_length'];
    if (typeof length === 'number' && Number.isInteger(length) && length > 0) return length;
  }
  return undefined;
}

/** A LanguageModel on the official `ollama` client, with retries, a total timeout and typed errors. */
export function createOllamaModel(settings: OllamaModelSettings): OllamaLanguageModel {
  const requestHost = resolveOllamaHost(settings.host);
  // Errors and messages name the host without any credentials it carries.
  const host = displayURL(requestHost);
  const baseFetch = settings.fetch ?? globalThis.fetch;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_OLLAMA_TIMEOUT_MS;

  /** Runs `operation` with retries; each attempt gets a client whose requests carry the call's signal. */
  function run<T>(abortSignal: AbortSignal | undefined, operation: (client: Ollama, state: OllamaAttemptState) => Promise<T>): Promise<T> {
    return runModelCall(
      {
        abortSignal,
        timeoutMs,
        retry: settings,
        timeoutError: (attempts, cause) =>
          new ModelUnavailableError({
            provider: 'ollama',
            baseURL: host,
            hint: 'check that it is running and the model loads, or raise the timeout (timeoutMs; in ollm, --timeout SECONDS or the config key timeout)',
            reason: 'timeout',
            attempts,
            message: `Ollama server at ${host} did not answer within ${timeoutMs} ms — check that it is running and the model loads, or raise the timeout (timeoutMs; in ollm, --timeout SECONDS or the config key timeout)`,
            cause,
          }),
      },
      async (attempt, callSignal) => {
        const state: OllamaAttemptState = { host, model: settings.model, attempt, emittedText: false };
        // The client passes no signal on non-streaming requests, so the fetch adds the call's own.
        const client = new Ollama({
          host: requestHost,
          fetch: async (input, init) => {
            const signal = init?.signal ? AbortSignal.any([init.signal, callSignal]) : callSignal;
            const response = guardNdjsonResponse(await baseFetch(input, { ...init, signal }), host);
            state.response = response;
            return response;
          },
        });
        try {
          return await operation(client, state);
        } catch (error) {
          throw toOllamaModelError(error, state);
        }
      },
    );
  }

  async function complete(options: LanguageModelCallOptions): Promise<LanguageModelResult> {
    const numPredict = options.maxOutputTokens ?? settings.numPredict;
    const request: ChatRequest = {
      model: settings.model,
      messages: toOllamaMessages(options.messages),
      options: {
        num_ctx: settings.numCtx ?? DEFAULT_NUM_CTX,
        ...(numPredict !== undefined ? { num_predict: numPredict } : {}),
        ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      },
      ...(settings.keepAlive !== undefined ? { keep_alive: settings.keepAlive } : {}),
    };
    return run(options.abortSignal, async (client, state) => {
      if (!options.onTextDelta) {
        const response: unknown = await client.chat({ ...request, stream: false });
        return toResult(response, state.host, undefined);
      }
      const stream = await client.chat({ ...request, stream: true });
      let text = '';
      let final: unknown;
      for await (const chunk of stream as AsyncIterable<unknown>) {
        const message = isRecord(chunk) ? chunk['message'] : undefined;
        if (!isRecord(chunk) || !isRecord(message) || typeof message['content'] !== 'string') {
          throw wrongShapeError(state.host, 'a stream chunk', chunk);
        }
        if (message['content'] !== '') {
          text += message['content'];
          state.emittedText = true;
          options.onTextDelta(message['content']);
        }
        if (chunk['done'] === true) final = chunk;
      }
      return toResult(final, state.host, text);
    });
  }

  return {
    specificationVersion: 'v1',
    provider: 'ollama',
    modelId: settings.model,
    host,
    complete,
    describe: ({ abortSignal } = {}) =>
      run(abortSignal, async (client, state) => {
        const shown: unknown = await client.show({ model: settings.model });
        if (!isRecord(shown) || !isRecord(shown['model_info'])) throw wrongShapeError(state.host, '/api/show', shown);
        const info = shown['model_info'];
        const architecture = info['general.architecture'];
        const key =
          typeof architecture === 'string' && `${architecture}.context_length` in info
            ? `${architecture}.context_length`
            : Object.keys(info).find((name) => name.endsWith('.context_length'));
        const trained = key !== undefined && typeof info[key] === 'number' ? (info[key] as number) : undefined;
        // The window in effect is num_ctx (capped by what the model was trained for).
        const numCtx = settings.numCtx ?? DEFAULT_NUM_CTX;
        const contextLength = trained === undefined ? numCtx : Math.min(trained, numCtx);
        const details = isRecord(shown['details']) ? shown['details'] : {};
        const parameterSize = details['parameter_size'];
        const loadedContextLength = await loadedWindow(client, settings.model);
        return {
          contextLength,
          ...(trained !== undefined ? { trainedContextLength: trained } : {}),
          ...(loadedContextLength !== undefined ? { loadedContextLength } : {}),
          ...(typeof parameterSize === 'string' ? { parameterSize } : {}),
        };
      }),
    listModels: ({ abortSignal } = {}) =>
      run(abortSignal, async (client, state) => {
        const listed: unknown = await client.list();
        if (!isRecord(listed) || !Array.isArray(listed['models'])) throw wrongShapeError(state.host, '/api/tags', listed);
        return listed['models'].filter(isRecord).map((entry) => {
          const details = isRecord(entry['details']) ? entry['details'] : {};
          const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
          const summary: { -readonly [K in keyof OllamaModelSummary]: OllamaModelSummary[K] } = {
            name: String(entry['name'] ?? entry['model'] ?? ''),
          };
          const family = text(details['family']);
          const parameterSize = text(details['parameter_size']);
          const quantization = text(details['quantization_level']);
          if (family) summary.family = family;
          if (parameterSize) summary.parameterSize = parameterSize;
          if (quantization) summary.quantization = quantization;
          if (typeof entry['size'] === 'number') summary.size = entry['size'];
          return summary;
        });
      }),
  };
}

function toResult(response: unknown, host: string, streamedText: string | undefined): LanguageModelResult {
  const message = isRecord(response) ? response['message'] : undefined;
  if (!isRecord(response) || !isRecord(message) || typeof message['content'] !== 'string') {
    throw wrongShapeError(host, 'a chat response', response);
  }
  const count = (value: unknown) => (typeof value === 'number' ? value : undefined);
  const inputTokens = count(response['prompt_eval_count']);
  const outputTokens = count(response['eval_count']);
  const finishReason = response['done_reason'];
  return {
    text: streamedText ?? message['content'],
    usage: {
      ...(inputTokens !== undefined ? { inputTokens } : {}),
      ...(outputTokens !== undefined ? { outputTokens } : {}),
    },
    ...(typeof finishReason === 'string' ? { finishReason } : {}),
  };
}

export { OLLAMA_HINT };
