import { OllmError } from './ollm-error.js';

const marker = 'ollm.error.invalid-transcript';
const symbol = Symbol.for(marker);

/** A transcript file is malformed or of an unknown format. */
export class InvalidTranscriptError extends OllmError {
  private readonly [symbol] = true;
  readonly file: string;
  /** Where the problem is, e.g. `line 12`, `message 40`, `byte 1033`. */
  readonly position: string;
  readonly reason: string;

  constructor({ file, position, reason, cause }: { file: string; position: string; reason: string; cause?: unknown }) {
    super({ code: 'invalid-transcript', message: `${file}: ${position}: ${reason}`, cause });
    this.name = 'InvalidTranscriptError';
    this.file = file;
    this.position = position;
    this.reason = reason;
  }

  static override isInstance(error: unknown): error is InvalidTranscriptError {
    return OllmError.hasMarker(error, marker);
  }
}
