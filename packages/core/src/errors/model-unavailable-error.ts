import { OllmError } from './ollm-error.js';

const marker = 'ollm.error.model-unavailable';
const symbol = Symbol.for(marker);

/** Why the model server could not be used: nothing answered, or it did not answer in time. */
export type ModelUnavailableReason = 'unreachable' | 'timeout';

/**
 * The model server could not be reached (after retries) or did not answer within the call's
 * timeout. The message names the URL tried and says what to start or set, so the CLI can print
 * it as a one-line error.
 */
export class ModelUnavailableError extends OllmError {
  private readonly [symbol] = true;
  /** e.g. `ollama`, `openai`. */
  readonly provider: string;
  /** The host / base URL that was tried (credentials removed). */
  readonly baseURL: string;
  /** What to start or set, e.g. "start it with `ollama serve`". */
  readonly hint: string;
  readonly reason: ModelUnavailableReason;
  /** Requests made before giving up. */
  readonly attempts: number;
  /** An unreachable server may come back; a timed-out call has used its whole budget. */
  readonly isRetryable: boolean;

  constructor({
    provider,
    baseURL,
    hint,
    reason = 'unreachable',
    attempts = 1,
    message,
    cause,
  }: {
    provider: string;
    baseURL: string;
    hint: string;
    reason?: ModelUnavailableReason;
    attempts?: number;
    message?: string;
    cause?: unknown;
  }) {
    super({
      code: 'model-unavailable',
      message: message ?? `No ${provider} server at ${baseURL} — ${hint}`,
      cause,
    });
    this.name = 'ModelUnavailableError';
    this.provider = provider;
    this.baseURL = baseURL;
    this.hint = hint;
    this.reason = reason;
    this.attempts = attempts;
    this.isRetryable = reason === 'unreachable';
  }

  static override isInstance(error: unknown): error is ModelUnavailableError {
    return OllmError.hasMarker(error, marker);
  }
}
