import { countLines, describeOutput } from './describe-output.js';

/** Every placeholder starts with this, so a second pass recognises (and never re-masks) one. */
export const PLACEHOLDER_PREFIX = '[ollm mask] ';

export interface PlaceholderInput {
  /** The call as `describeCall` renders it. */
  readonly call: string;
  readonly output: string;
  readonly outputTokens: number;
  readonly isError?: boolean;
  /** The output's sha256; the text names the saved file (`path`), which carries it. */
  readonly sha256?: string;
  /** Where the output was saved; absent when there was no logdir. */
  readonly path?: string;
}

/**
 * The text that replaces a masked tool output: which call produced it, how big it was, a one-line
 * hint of what it said, and how to get it back. Two short lines, so a model still knows
 * that the command ran and what kind of answer came back.
 */
/** Hex digits of the sha256 a placeholder names. */
export const RECOVERY_REFERENCE_LENGTH = 12;

export function buildPlaceholder(input: PlaceholderInput): string {
  const lines = countLines(input.output);
  const size = `${input.outputTokens} tokens, ${lines} line${lines === 1 ? '' : 's'}`;
  const hint = `${input.isError ? 'error; ' : ''}${describeOutput(input.output, input.isError)}`;
  // A 12-hex reference (~4 tokens) rather than the saved path (~35 tokens and different on every
  // machine): `ollm recover` finds the piece by that prefix in the logdir.
  const reference = input.sha256?.slice(0, RECOVERY_REFERENCE_LENGTH);
  const recovery = input.path === undefined || reference === undefined ? 'not saved (no logdir), not recoverable' : `recover: ollm recover ${reference}`;
  return `${PLACEHOLDER_PREFIX}\`${input.call}\` output masked (${size}); ${hint}\n${recovery}`;
}

export function isPlaceholder(output: string): boolean {
  return output.startsWith(PLACEHOLDER_PREFIX);
}
