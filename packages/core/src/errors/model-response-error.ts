import { OllmError } from './ollm-error.js';

const marker = 'ollm.error.model-response';
const symbol = Symbol.for(marker);

/** Longest body excerpt an error carries; enough to diagnose, small enough for a log line. */
export const MODEL_RESPONSE_EXCERPT_LENGTH = 500;

/**
 * The model server answered, but not with a usable reply: an HTTP error status, a body that is
 * not JSON, JSON of the wrong shape, or a stream cut short. `isRetryable` says whether the same
 * request may succeed later (429, 5xx, a stream cut before any output).
 */
export class ModelResponseError extends OllmError {
  private readonly [symbol] = true;
  readonly provider: string;
  /** HTTP status, when the failure came with one. */
  readonly status?: number;
  readonly isRetryable: boolean;
  /** How long the server asked us to wait (`retry-after`), in milliseconds. */
  readonly retryAfterMs?: number;
  /** The start of the response body, for diagnosis. */
  readonly bodyExcerpt?: string;

  constructor({
    provider,
    message,
    status,
    isRetryable = false,
    retryAfterMs,
    body,
    cause,
  }: {
    provider: string;
    message: string;
    status?: number;
    isRetryable?: boolean;
    retryAfterMs?: number;
    /** Full or partial body; only an excerpt is kept. */
    body?: string;
    cause?: unknown;
  }) {
    super({ code: 'model-response', message, cause });
    this.name = 'ModelResponseError';
    this.provider = provider;
    if (status !== undefined) this.status = status;
    this.isRetryable = isRetryable;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
    if (body !== undefined) {
      this.bodyExcerpt = body.length > MODEL_RESPONSE_EXCERPT_LENGTH ? `${body.slice(0, MODEL_RESPONSE_EXCERPT_LENGTH)}…` : body;
    }
  }

  static override isInstance(error: unknown): error is ModelResponseError {
    return OllmError.hasMarker(error, marker);
  }
}
