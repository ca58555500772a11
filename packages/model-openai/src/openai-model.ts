import OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions/completions';
import type { LanguageModel, LanguageModelCallOptions, LanguageModelResult, LanguageModelUsage, ModelRetrySettings } from '@ollm/core';
import { ModelResponseError, ModelUnavailableError, displayURL, runModelCall } from '@ollm/core';
import type { OpenAIAttemptState } from './openai-error.js';
import { OPENAI_HINT, toOpenAIModelError, wrongShapeError } from './openai-error.js';
import { toOpenAIMessages } from './to-openai-messages.js';
import { isLlamaServerEntry, llamaServerContextLength, modelEntryContextLength } from './model-entry-context-length.js';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_OPENAI_TIMEOUT_MS = 300_000;
/** What local servers (vLLM, llama.cpp, LM Studio) accept as a key: anything. */
export const LOCAL_API_KEY = 'not-needed';

export interface OpenAIModelSettings extends ModelRetrySettings {
  /** Default `OPENAI_BASE_URL`, else https://api.openai.com/v1. */
  readonly baseURL?: string;
  /** Default `OPENAI_API_KEY`, else `not-needed` (for local servers). Never logged or shown. */
  readonly apiKey?: string;
  readonly model: string;
  /** Total time for one call, retries included; default 300 s. */
  readonly timeoutMs?: number;
  /**
   * How the output cap is sent: OpenAI's own API wants `max_completion_tokens`, many compatible
   * servers only know `max_tokens`. Default: the former for api.openai.com, the latter elsewhere.
   */
  readonly maxTokensParameter?: 'max_tokens' | 'max_completion_tokens';
  readonly fetch?: typeof fetch;
}

export interface OpenAILanguageModel extends LanguageModel {
  readonly provider: 'openai';
  readonly baseURL: string;
  /** The context length the server reports for the model (vLLM, LM Studio, llama.cpp, OpenRouter); none from OpenAI. */
  describe(options?: { abortSignal?: AbortSignal }): Promise<{ contextLength?: number }>;
  listModels(options?: { abortSignal?: AbortSignal }): Promise<string[]>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Statuses of a server without `GET /models/{id}` (or refusing the id in a path): ask the list instead. */
const NO_MODEL_ROUTE_STATUSES = new Set([400, 404, 405, 422, 501]);

function usageFrom(value: unknown): LanguageModelUsage {
  if (!isRecord(value)) return {};
  const inputTokens = value['prompt_tokens'];
  const outputTokens = value['completion_tokens'];
  return {
    ...(typeof inputTokens === 'number' ? { inputTokens } : {}),
    ...(typeof outputTokens === 'number' ? { outputTokens } : {}),
  };
}

/** A LanguageModel on the official `openai` client (any OpenAI-compatible server). */
export function createOpenAIModel(settings: OpenAIModelSettings): OpenAILanguageModel {
  const rawBaseURL = settings.baseURL ?? process.env['OPENAI_BASE_URL'] ?? DEFAULT_OPENAI_BASE_URL;
  const baseURL = displayURL(rawBaseURL);
  const apiKey = settings.apiKey ?? process.env['OPENAI_API_KEY'] ?? LOCAL_API_KEY;
  const timeoutMs = settings.timeoutMs ?? DEFAULT_OPENAI_TIMEOUT_MS;
  const maxTokensParameter = settings.maxTokensParameter ?? (baseURL.includes('api.openai.com') ? 'max_completion_tokens' : 'max_tokens');
  // Our retry loop owns retries (so counts are predictable) and our signal owns the deadline;
  // the client's logging is off so nothing it logs can carry the key.
  const client = new OpenAI({
    baseURL: rawBaseURL,
    apiKey,
    maxRetries: 0,
    timeout: timeoutMs + 1_000,
    logLevel: 'off',
    ...(settings.fetch ? { fetch: settings.fetch } : {}),
  });

  function run<T>(abortSignal: AbortSignal | undefined, operation: (signal: AbortSignal, state: OpenAIAttemptState) => Promise<T>): Promise<T> {
    return runModelCall(
      {
        abortSignal,
        timeoutMs,
        retry: settings,
        timeoutError: (attempts) =>
          new ModelUnavailableError({
            provider: 'openai',
            baseURL,
            hint: OPENAI_HINT,
            reason: 'timeout',
            attempts,
            message: `OpenAI-compatible server at ${baseURL} did not answer within ${timeoutMs} ms — check that it is running, or raise the timeout (timeoutMs; in ollm, --timeout SECONDS or the config key timeout)`,
          }),
      },
      async (attempt, signal) => {
        const state: OpenAIAttemptState = { baseURL, model: settings.model, attempt, apiKey, emittedText: false };
        try {
          const result = await operation(signal, state);
          // The client ends an aborted stream quietly; an abort must not pass for a short reply.
          signal.throwIfAborted();
          return result;
        } catch (error) {
          if (signal.aborted) throw signal.reason;
          throw toOpenAIModelError(error, state);
        }
      },
    );
  }

  async function complete(options: LanguageModelCallOptions): Promise<LanguageModelResult> {
    const params: ChatCompletionCreateParamsBase = {
      model: settings.model,
      messages: toOpenAIMessages(options.messages),
      ...(options.maxOutputTokens !== undefined ? { [maxTokensParameter]: options.maxOutputTokens } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
    };
    return run(options.abortSignal, async (signal, state) => {
      if (!options.onTextDelta) {
        const completion: unknown = await client.chat.completions.create({ ...params, stream: false }, { signal });
        const choice = isRecord(completion) && Array.isArray(completion['choices']) ? completion['choices'][0] : undefined;
        const message = isRecord(choice) ? choice['message'] : undefined;
        if (!isRecord(choice) || !isRecord(message)) throw wrongShapeError(state, 'a chat completion', completion);
        const content = message['content'];
        if (content !== null && content !== undefined && typeof content !== 'string') {
          throw wrongShapeError(state, 'a chat completion', completion);
        }
        const finishReason = choice['finish_reason'];
        return {
          text: content ?? '',
          usage: usageFrom((completion as Record<string, unknown>)['usage']),
          ...(typeof finishReason === 'string' ? { finishReason } : {}),
        };
      }
      const stream = await client.chat.completions.create({ ...params, stream: true, stream_options: { include_usage: true } }, { signal });
      let text = '';
      let usage: LanguageModelUsage = {};
      let finishReason: string | undefined;
      for await (const chunk of stream as AsyncIterable<unknown>) {
        if (!isRecord(chunk) || !Array.isArray(chunk['choices'])) throw wrongShapeError(state, 'a stream chunk', chunk);
        if (isRecord(chunk['usage'])) usage = usageFrom(chunk['usage']);
        const choice: unknown = chunk['choices'][0];
        if (!isRecord(choice)) continue;
        const delta = isRecord(choice['delta']) ? choice['delta']['content'] : undefined;
        if (typeof delta === 'string' && delta !== '') {
          text += delta;
          state.emittedText = true;
          options.onTextDelta(delta);
        }
        if (typeof choice['finish_reason'] === 'string') finishReason = choice['finish_reason'];
      }
      return { text, usage, ...(finishReason !== undefined ? { finishReason } : {}) };
    });
  }

  function listEntries(abortSignal: AbortSignal | undefined): Promise<Record<string, unknown>[]> {
    return run(abortSignal, async (signal, state) => {
      const page: unknown = await client.models.list({ signal });
      const data = isRecord(page) ? page['data'] : undefined;
      if (!Array.isArray(data)) throw wrongShapeError(state, '/models', page);
      return data.filter(isRecord);
    });
  }

  /** `GET /models/{model}`; undefined when the server has no such route (vLLM, llama.cpp, OpenRouter). */
  async function retrieveEntry(abortSignal: AbortSignal | undefined): Promise<Record<string, unknown> | undefined> {
    try {
      return await run(abortSignal, async (signal, state) => {
        const entry: unknown = await client.models.retrieve(settings.model, { signal });
        if (!isRecord(entry)) throw wrongShapeError(state, `/models/${settings.model}`, entry);
        return entry;
      });
    } catch (error) {
      // An unreachable server, a bad key or the caller's abort would fail the list as well.
      const noRoute = ModelResponseError.isInstance(error) && (error.status === undefined || NO_MODEL_ROUTE_STATUSES.has(error.status));
      if (!noRoute) throw error;
      return undefined;
    }
  }

  // Kept once known: what a server says about a model does not change while it is loaded.
  let described: { contextLength?: number } | undefined;

  async function describe({ abortSignal }: { abortSignal?: AbortSignal } = {}): Promise<{ contextLength?: number }> {
    if (described) return described;
    let entry = await retrieveEntry(abortSignal);
    if (modelEntryContextLength(entry) === undefined) {
      const entries = await listEntries(abortSignal);
      // llama.cpp server answers for its one model whatever name a request carries.
      const single = entries.length === 1 && isLlamaServerEntry(entries[0]) ? entries[0] : undefined;
      entry = entries.find((candidate) => candidate['id'] === settings.model) ?? single ?? entry;
    }
    let contextLength = modelEntryContextLength(entry);
    if (isLlamaServerEntry(entry)) {
      // n_ctx_train is what the model was trained for; /props has the window the server runs (-c).
      contextLength = (await llamaServerWindow(abortSignal)) ?? contextLength;
    }
    described = contextLength !== undefined ? { contextLength } : {};
    return described;
  }

  /** llama.cpp server's `/props` (beside `/v1`, not under it); undefined when it cannot be read. */
  async function llamaServerWindow(abortSignal: AbortSignal | undefined): Promise<number | undefined> {
    const propsURL = new URL('../props', rawBaseURL.endsWith('/') ? rawBaseURL : `${rawBaseURL}/`).href;
    try {
      return await run(abortSignal, async (signal) => llamaServerContextLength(await client.get<unknown>(propsURL, { signal })));
    } catch (error) {
      abortSignal?.throwIfAborted();
      // The list already answered; a missing /props only loses the better number.
      if (ModelResponseError.isInstance(error) || ModelUnavailableError.isInstance(error)) return undefined;
      throw error;
    }
  }

  return {
    specificationVersion: 'v1',
    provider: 'openai',
    modelId: settings.model,
    baseURL,
    complete,
    describe,
    listModels: async ({ abortSignal } = {}) => (await listEntries(abortSignal)).map((entry) => String(entry['id'])),
  };
}
