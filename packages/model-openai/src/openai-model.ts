import OpenAI from 'openai';
import type { ChatCompletionCreateParamsBase } from 'openai/resources/chat/completions/completions';
import type {
  LanguageModel,
  LanguageModelCallOptions,
  LanguageModelResult,
  LanguageModelUsage,
  ModelRetrySettings,
} from '@ollm/core';
import { ModelUnavailableError, displayURL, runModelCall } from '@ollm/core';
import type { OpenAIAttemptState } from './openai-error.js';
import { OPENAI_HINT, toOpenAIModelError, wrongShapeError } from './openai-error.js';
import { toOpenAIMessages } from './to-openai-messages.js';

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
  listModels(options?: { abortSignal?: AbortSignal }): Promise<string[]>;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

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
  const maxTokensParameter =
    settings.maxTokensParameter ?? (baseURL.includes('api.openai.com') ? 'max_completion_tokens' : 'max_tokens');
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

  function run<T>(
    abortSignal: AbortSignal | undefined,
    operation: (signal: AbortSignal, state: OpenAIAttemptState) => Promise<T>,
  ): Promise<T> {
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
            message: `OpenAI-compatible server at ${baseURL} did not answer within ${timeoutMs} ms — check that it is running, or raise timeoutMs`,
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
      const stream = await client.chat.completions.create(
        { ...params, stream: true, stream_options: { include_usage: true } },
        { signal },
      );
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

  return {
    specificationVersion: 'v1',
    provider: 'openai',
    modelId: settings.model,
    baseURL,
    complete,
    listModels: ({ abortSignal } = {}) =>
      run(abortSignal, async (signal, state) => {
        const page: unknown = await client.models.list({ signal });
        const data = isRecord(page) ? page['data'] : undefined;
        if (!Array.isArray(data)) throw wrongShapeError(state, '/models', page);
        return data.filter(isRecord).map((entry) => String(entry['id']));
      }),
  };
}
