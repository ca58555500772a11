import { OllmError } from './ollm-error.js';

const marker = 'ollm.error.provider-execution';
const symbol = Symbol.for(marker);

/** A provider threw while compressing; the host stamps the provider's name on it. */
export class ProviderExecutionError extends OllmError {
  private readonly [symbol] = true;
  readonly provider: string;

  constructor({ provider, cause }: { provider: string; cause: unknown }) {
    super({
      code: 'provider-execution',
      message: `Provider "${provider}" failed: ${cause instanceof Error ? cause.message : String(cause)}`,
      cause,
    });
    this.name = 'ProviderExecutionError';
    this.provider = provider;
  }

  static override isInstance(error: unknown): error is ProviderExecutionError {
    return OllmError.hasMarker(error, marker);
  }
}
