import { InvalidTranscriptError } from '@ollm/core';

/** Shorthand for the one error every reader throws. */
export function invalidTranscript(file: string, position: string, reason: string, cause?: unknown): InvalidTranscriptError {
  return new InvalidTranscriptError({ file, position, reason, cause });
}
