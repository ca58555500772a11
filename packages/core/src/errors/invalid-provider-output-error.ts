import { OllmError } from './ollm-error.js';

const marker = 'ollm.error.invalid-provider-output';
const symbol = Symbol.for(marker);

/**
 * A provider returned output that breaks an integrity rule. The host raises it and the caller
 * keeps the input conversation unchanged.
 */
export class InvalidProviderOutputError extends OllmError {
  private readonly [symbol] = true;
  readonly provider: string;
  /** The integrity rule broken, e.g. `tool-pairing`. */
  readonly rule: string;
  readonly detail: string;

  constructor({ provider, rule, detail }: { provider: string; rule: string; detail: string }) {
    super({
      code: 'invalid-provider-output',
      message: `Provider "${provider}" broke integrity rule "${rule}": ${detail}`,
    });
    this.name = 'InvalidProviderOutputError';
    this.provider = provider;
    this.rule = rule;
    this.detail = detail;
  }

  static override isInstance(error: unknown): error is InvalidProviderOutputError {
    return OllmError.hasMarker(error, marker);
  }
}
