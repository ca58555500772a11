import { OllmError } from './ollm-error.js';

const marker = 'ollm.error.no-model';
const symbol = Symbol.for(marker);

/** Something that calls a model (a model-based provider, `ContextManager.complete`) was given none. */
export class NoModelError extends OllmError {
  private readonly [symbol] = true;
  /** Who needed the model: a provider name, or `complete()`. */
  readonly needer: string;

  constructor({ needer, message }: { needer: string; message: string }) {
    super({ code: 'no-model', message });
    this.name = 'NoModelError';
    this.needer = needer;
  }

  static override isInstance(error: unknown): error is NoModelError {
    return OllmError.hasMarker(error, marker);
  }
}
