import { OllmError } from './ollm-error.js';

const marker = 'ollm.error.invalid-argument';
const symbol = Symbol.for(marker);

/** A caller passed a value ollm cannot use (bad option, bad id, bad limit). */
export class InvalidArgumentError extends OllmError {
  private readonly [symbol] = true;
  readonly argument: string;

  constructor({ argument, message }: { argument: string; message: string }) {
    super({ code: 'invalid-argument', message });
    this.name = 'InvalidArgumentError';
    this.argument = argument;
  }

  static override isInstance(error: unknown): error is InvalidArgumentError {
    return OllmError.hasMarker(error, marker);
  }
}
