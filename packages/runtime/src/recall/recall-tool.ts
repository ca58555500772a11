import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { InvalidArgumentError, RECOVERY_FOLDER, readRemovedEntry, type TokenCounting } from '@ollm/core';

/** The tool's name, as the model calls it. */
export const RECALL_TOOL_NAME = 'recall';
/** The most one call returns; longer content comes in pages (`offset`). */
export const DEFAULT_RECALL_MAX_CHARACTERS = 16_000;
const MINIMUM_REFERENCE_DIGITS = 8;
/** Share of the window one recall page may take by default (hosts that know the window), so the step that reads it still fits. */
export const DEFAULT_RECALL_WINDOW_SHARE = 0.25;

/** A tool definition any host can hand to a model: a name, a description and a JSON Schema for its input. */
export interface RecallToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: {
    readonly type: 'object';
    readonly properties: Record<string, unknown>;
    readonly required: readonly string[];
    readonly additionalProperties: false;
  };
}

export const RECALL_TOOL: RecallToolDefinition = {
  name: RECALL_TOOL_NAME,
  description:
    'Take back content that was removed from this conversation to fit the context window. Give the reference a placeholder shows (the hex digits in "[ollm fold 3f2a9c1e4b7d]", "ollm recover 3f2a9c1e4b7d" or "removed/<sha256>.txt", 8 to 64 of them). Returns the removed text exactly as it was; long texts come in pages (pass offset to read on).',
  inputSchema: {
    type: 'object',
    properties: {
      reference: { type: 'string', description: 'The hex reference the placeholder shows (8 to 64 hex digits).' },
      offset: { type: 'integer', minimum: 0, description: 'Characters to skip, to read a long text on (default 0).' },
    },
    required: ['reference'],
    additionalProperties: false,
  },
};

export interface RecallInput {
  readonly reference: string;
  readonly offset?: number;
}

export interface RecallResult {
  /** The removed text from `offset`, at most `maxCharacters` of it: byte for byte what was removed. */
  readonly text: string;
  readonly sha256: string;
  readonly offset: number;
  readonly totalCharacters: number;
  /** Where the next page starts, when there is more. */
  readonly nextOffset?: number;
  /** `redacted`: secrets were replaced by `[redacted]` when it was saved. */
  readonly state: 'intact' | 'redacted';
}

export interface RecallOptions {
  /** The logdir compaction saved removed content under. */
  readonly logdir: string;
  readonly maxCharacters?: number;
  /** Tokens one page may hold at most (counted with `tokens`): the page is cut, by characters, until it does. */
  readonly maxTokens?: number;
  readonly tokens?: TokenCounting;
}

/**
 * What the recall tool does: finds the removed content a reference names in the recovery store
 * (a full sha256 or a unique prefix of 8+ hex digits), checks it against its sha256, and returns
 * a page of it. A bad, unknown or ambiguous reference is an `InvalidArgumentError` whose message
 * is written for the model (hosts return it as the tool's error).
 */
export function recallRemoved(input: RecallInput, options: RecallOptions): RecallResult {
  const reference =
    typeof input.reference === 'string'
      ? input.reference
          .trim()
          .toLowerCase()
          .replace(/^removed\//, '')
          .replace(/\.txt$/, '')
      : '';
  if (!/^[0-9a-f]+$/.test(reference) || reference.length < MINIMUM_REFERENCE_DIGITS || reference.length > 64) {
    throw recallError(`"${String(input.reference)}" is not a reference: give the 8 to 64 hex digits a placeholder shows.`);
  }
  const offset = input.offset ?? 0;
  if (!Number.isInteger(offset) || offset < 0) throw recallError(`offset must be a whole number of characters, 0 or more; got ${String(input.offset)}.`);
  const folder = join(options.logdir, RECOVERY_FOLDER);
  const matches = savedNames(folder).filter((sha256) => sha256.startsWith(reference));
  if (matches.length === 0) throw recallError(`Nothing removed from this conversation has the reference ${reference}.`);
  if (matches.length > 1) throw recallError(`${reference} names ${matches.length} removed pieces; give more digits.`);
  const sha256 = matches[0]!;
  const entry = readRemovedEntry(join(folder, `${sha256}.txt`), sha256);
  if (entry.state === 'damaged') throw recallError(`The content saved under ${sha256.slice(0, 12)} was changed since it was saved; it cannot be given back.`);
  const content = entry.content.toString('utf8');
  const end = pageEnd(content, offset, options);
  return {
    text: content.slice(offset, end),
    sha256,
    offset,
    totalCharacters: content.length,
    ...(end < content.length ? { nextOffset: end } : {}),
    state: entry.state,
  };
}

/** Where a page from `offset` ends: at most `maxCharacters`, then shortened until it is within `maxTokens`. */
function pageEnd(content: string, offset: number, options: RecallOptions): number {
  let end = Math.min(content.length, offset + (options.maxCharacters ?? DEFAULT_RECALL_MAX_CHARACTERS));
  const { maxTokens, tokens } = options;
  if (maxTokens === undefined || tokens === undefined) return end;
  if (!Number.isInteger(maxTokens) || maxTokens < 1) {
    throw new InvalidArgumentError({
      argument: 'recall.maxTokens',
      message: `recall.maxTokens must be a whole number of tokens, 1 or more; got ${String(maxTokens)}`,
    });
  }
  for (;;) {
    const length = end - offset;
    const count = tokens.countText(content.slice(offset, end));
    if (count <= maxTokens || length <= 1) return end;
    end = offset + Math.max(1, Math.min(length - 1, Math.floor((length * maxTokens * 0.95) / count)));
  }
}

/** The tool's output as the model reads it: the text, and a line saying where it goes on when it was cut. */
export function recallOutput(result: RecallResult): string {
  if (result.nextOffset === undefined) return result.text;
  return `${result.text}\n[ollm recall: characters ${result.offset}-${result.nextOffset} of ${result.totalCharacters}; call recall with offset ${result.nextOffset} for more]`;
}

function recallError(message: string): InvalidArgumentError {
  return new InvalidArgumentError({ argument: 'reference', message });
}

function savedNames(folder: string): string[] {
  try {
    return readdirSync(folder).flatMap((name) => /^([0-9a-f]{64})\.txt$/.exec(name)?.[1] ?? []);
  } catch {
    return [];
  }
}
