import { OllmError } from '@ollm/core';

const marker = 'ollm.error.invalid-config';
const symbol = Symbol.for(marker);

/** A configuration value is invalid; names the file (or environment variable) and the key. */
export class InvalidConfigError extends OllmError {
  private readonly [symbol] = true;
  /** The config file path, `environment` or `flags`. */
  readonly file: string;
  /** Dotted key, e.g. `compaction.threshold`. */
  readonly key: string;

  constructor({ file, key, reason }: { file: string; key: string; reason: string }) {
    super({ code: 'invalid-config', message: `${file}: ${key}: ${reason}` });
    this.name = 'InvalidConfigError';
    this.file = file;
    this.key = key;
  }

  static override isInstance(error: unknown): error is InvalidConfigError {
    return OllmError.hasMarker(error, marker);
  }
}
