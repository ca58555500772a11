import { OllmError } from '@ollm/core';

const marker = 'ollm.error.store-unavailable';
const symbol = Symbol.for(marker);

/**
 * The proxy's shared store could not be used: nothing answered at its URL, it refused the
 * credentials, or a command failed or timed out. The message names the store's URL with any
 * user name and password replaced by `[redacted]`, and says what went wrong.
 */
export class StoreUnavailableError extends OllmError {
  private readonly [symbol] = true;
  /** The store's URL, credentials removed. */
  readonly url: string;

  constructor({ url, message, cause }: { url: string; message: string; cause?: unknown }) {
    super({ code: 'store-unavailable', message, cause });
    this.name = 'StoreUnavailableError';
    this.url = url;
  }

  static override isInstance(error: unknown): error is StoreUnavailableError {
    return OllmError.hasMarker(error, marker);
  }
}
