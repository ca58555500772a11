import { OllmError } from './ollm-error.js';

const marker = 'ollm.error.no-such-provider';
const symbol = Symbol.for(marker);

/** No provider is registered under the requested name. */
export class NoSuchProviderError extends OllmError {
  private readonly [symbol] = true;
  readonly providerName: string;
  readonly available: readonly string[];

  constructor({ providerName, available }: { providerName: string; available: readonly string[] }) {
    super({
      code: 'no-such-provider',
      message: `No context provider named "${providerName}". Available: ${available.length > 0 ? available.join(', ') : '(none)'}.`,
    });
    this.name = 'NoSuchProviderError';
    this.providerName = providerName;
    this.available = available;
  }

  static override isInstance(error: unknown): error is NoSuchProviderError {
    return OllmError.hasMarker(error, marker);
  }
}
