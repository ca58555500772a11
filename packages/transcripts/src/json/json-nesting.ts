import { formatInteger, nestsDeeperThan } from '@ollm/core';
import { invalidTranscript } from '../validation/invalid-transcript.js';
import { lineAndColumn } from './find-json-syntax-error.js';

/**
 * The deepest nesting of arrays and objects a transcript may have, counted from the document
 * (each line of a JSONL file) as level 1. `JSON.parse` reads any depth, but what comes after does
 * not: `JSON.stringify` and `structuredClone` recurse and overflow the call stack a few thousand
 * levels down, so a deeper file is refused when it is read, with its position. Real transcripts
 * nest a few dozen levels; Python's `json` module cannot write more than about 1,000.
 */
export const MAX_JSON_NESTING = 1000;

/** Throws InvalidTranscriptError at the first bracket past the limit when `value` (parsed from `text`) nests too deep. */
export function checkJsonNesting(value: unknown, text: string, file: string, firstLine = 1): void {
  if (!nestsDeeperThan(value, MAX_JSON_NESTING)) return;
  const { line, column } = lineAndColumn(text, offsetPastNesting(text, MAX_JSON_NESTING));
  throw invalidTranscript(
    file,
    `line ${line + firstLine - 1}, column ${column}`,
    `JSON nested deeper than ${formatInteger(MAX_JSON_NESTING)} levels (the limit for a transcript)`,
  );
}

/** UTF-16 offset of the first `[` or `{` of valid JSON `text` that opens level `limit + 1` (0 if none does). */
function offsetPastNesting(text: string, limit: number): number {
  let depth = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 0x22) {
      // Skip the string: to the next quote that no backslash escapes.
      for (index += 1; index < text.length && text.charCodeAt(index) !== 0x22; index += 1) if (text.charCodeAt(index) === 0x5c) index += 1;
    } else if (code === 0x5b || code === 0x7b) {
      depth += 1;
      if (depth > limit) return index;
    } else if (code === 0x5d || code === 0x7d) {
      depth -= 1;
    }
  }
  return 0;
}
