import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import { ModelResponseError, ModelUnavailableError, errorCode, isConnectionError, parseRetryAfter } from '@ollm/core';

export const OPENAI_HINT = 'start your OpenAI-compatible server (vLLM, llama.cpp, LM Studio) or set --base-url / OPENAI_BASE_URL';

/** What an attempt knew when it failed. */
export interface OpenAIAttemptState {
  readonly baseURL: string;
  readonly model: string;
  readonly attempt: number;
  readonly apiKey: string;
  /** True once any text reached the caller's onTextDelta (a retry would repeat it). */
  emittedText: boolean;
}

/** Removes the API key from text that came from elsewhere (servers echo keys in 401 bodies). */
export function redactApiKey(text: string, apiKey: string): string {
  if (apiKey.length < 4) return text;
  return text.split(apiKey).join('[redacted]');
}

function statusHint(status: number, model: string): string {
  if (status === 401 || status === 403) return ' — check the API key (OPENAI_API_KEY)';
  if (status === 404) return ` — check the model name ("${model}") and the base URL`;
  return '';
}

function retryAfterFrom(headers: Headers | undefined): number | undefined {
  const milliseconds = Number(headers?.get('retry-after-ms'));
  if (headers?.get('retry-after-ms') && Number.isFinite(milliseconds)) return milliseconds;
  return parseRetryAfter(headers?.get('retry-after'));
}

/**
 * Turns whatever the `openai` client threw into ModelUnavailableError / ModelResponseError. Text
 * from the server is redacted, and client errors are not kept as causes, so the key never shows.
 */
export function toOpenAIModelError(error: unknown, state: OpenAIAttemptState): Error {
  if (ModelResponseError.isInstance(error) || ModelUnavailableError.isInstance(error)) return error;
  const where = `OpenAI-compatible server at ${state.baseURL}`;
  if (error instanceof APIConnectionTimeoutError) {
    return new ModelUnavailableError({
      provider: 'openai',
      baseURL: state.baseURL,
      hint: OPENAI_HINT,
      reason: 'timeout',
      message: `${where} did not answer in time — ${OPENAI_HINT}`,
    });
  }
  if (error instanceof APIConnectionError) {
    const code = errorCode(error.cause);
    return new ModelUnavailableError({
      provider: 'openai',
      baseURL: state.baseURL,
      hint: OPENAI_HINT,
      attempts: state.attempt + 1,
      message: `No OpenAI-compatible server at ${state.baseURL}${code ? ` (${code})` : ''} — ${OPENAI_HINT}`,
    });
  }
  if (error instanceof APIError) {
    const status = error.status;
    const body = redactApiKey(error.error === undefined ? '' : JSON.stringify(error.error), state.apiKey);
    const detail = redactApiKey(error.message, state.apiKey);
    if (status === undefined) {
      return new ModelResponseError({ provider: 'openai', message: `${where} sent an error: ${detail}`, body });
    }
    const retryAfterMs = retryAfterFrom(error.headers);
    return new ModelResponseError({
      provider: 'openai',
      message: `${where} answered ${detail.slice(0, 200)}${statusHint(status, state.model)}`,
      status,
      isRetryable: status === 408 || status === 429 || status >= 500,
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      body,
    });
  }
  const detail = redactApiKey(error instanceof Error ? error.message : String(error), state.apiKey);
  if (error instanceof SyntaxError) {
    return new ModelResponseError({ provider: 'openai', message: `${where} sent a body that is not JSON: ${detail}` });
  }
  if (isConnectionError(error) || /terminated/i.test(detail)) {
    // The body was cut. Before any text reached the caller the request can simply be repeated.
    return new ModelResponseError({
      provider: 'openai',
      message: `${where} cut the response short${state.emittedText ? ' after streaming part of it' : ''}`,
      isRetryable: !state.emittedText,
    });
  }
  return new ModelResponseError({ provider: 'openai', message: `${where} sent an unusable response: ${detail}` });
}

/** A response that parsed as JSON but is not what the protocol promises. */
export function wrongShapeError(state: OpenAIAttemptState, what: string, body: unknown): ModelResponseError {
  return new ModelResponseError({
    provider: 'openai',
    message: `OpenAI-compatible server at ${state.baseURL} sent ${what} of an unexpected shape`,
    body: redactApiKey(typeof body === 'string' ? body : (JSON.stringify(body) ?? String(body)), state.apiKey),
  });
}
