import { ModelResponseError, ModelUnavailableError, isConnectionError, parseRetryAfter } from '@ollm/core';

export const OLLAMA_HINT = 'start it with `ollama serve`, or use `--api openai --base-url URL`';

/** What an attempt knew when it failed. */
export interface OllamaAttemptState {
  readonly host: string;
  readonly model: string;
  readonly attempt: number;
  /** The HTTP response, once headers arrived. */
  response?: Response;
  /** True once any text reached the caller's onTextDelta (a retry would repeat it). */
  emittedText: boolean;
}

function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Turns whatever the `ollama` client threw into ModelUnavailableError / ModelResponseError. */
export function toOllamaModelError(error: unknown, state: OllamaAttemptState): Error {
  if (ModelResponseError.isInstance(error) || ModelUnavailableError.isInstance(error)) return error;
  const statusCode = (error as { status_code?: unknown } | null)?.status_code;
  if (typeof statusCode === 'number') {
    const body = String((error as { error?: unknown }).error ?? '');
    const retryAfterMs = parseRetryAfter(state.response?.headers.get('retry-after'));
    const hint = statusCode === 404 ? ` — pull it with \`ollama pull ${state.model}\`` : '';
    return new ModelResponseError({
      provider: 'ollama',
      message: `Ollama server at ${state.host} answered ${statusCode}: ${body.slice(0, 200)}${hint}`,
      status: statusCode,
      isRetryable: isRetryableStatus(statusCode),
      ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
      body,
      cause: error,
    });
  }
  if (state.response === undefined && isConnectionError(error)) {
    return new ModelUnavailableError({
      provider: 'ollama',
      baseURL: state.host,
      hint: OLLAMA_HINT,
      attempts: state.attempt + 1,
      message: `No Ollama server at ${state.host} — ${OLLAMA_HINT}`,
      cause: error,
    });
  }
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof SyntaxError) {
    return new ModelResponseError({
      provider: 'ollama',
      message: `Ollama server at ${state.host} sent a body that is not JSON: ${detail}`,
      cause: error,
    });
  }
  if (state.response !== undefined && (isConnectionError(error) || /terminated/i.test(detail))) {
    // The body was cut. Before any text reached the caller the request can simply be repeated.
    return new ModelResponseError({
      provider: 'ollama',
      message: `Ollama server at ${state.host} cut the response short${state.emittedText ? ' after streaming part of it' : ''}`,
      isRetryable: !state.emittedText,
      cause: error,
    });
  }
  return new ModelResponseError({
    provider: 'ollama',
    message: `Ollama server at ${state.host} sent an unusable response: ${detail}`,
    cause: error,
  });
}

/** A response that parsed as JSON but is not what the protocol promises. */
export function wrongShapeError(host: string, what: string, body: unknown): ModelResponseError {
  return new ModelResponseError({
    provider: 'ollama',
    message: `Ollama server at ${host} sent ${what} of an unexpected shape`,
    body: JSON.stringify(body) ?? String(body),
  });
}
