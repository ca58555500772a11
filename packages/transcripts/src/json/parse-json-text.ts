import { invalidTranscript } from '../validation/invalid-transcript.js';
import { findJsonSyntaxError, lineAndColumn } from './find-json-syntax-error.js';
import { checkJsonNesting } from './json-nesting.js';

/**
 * `JSON.parse` whose error names the line and column. `firstLine` shifts line numbers when
 * the text is one line of a JSONL file. A value nested deeper than MAX_JSON_NESTING is refused
 * at its position too (see json-nesting.ts).
 */
export function parseJsonText(text: string, file: string, firstLine = 1): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch (error) {
    const found = findJsonSyntaxError(text);
    if (!found) throw invalidTranscript(file, `line ${firstLine}`, `malformed JSON: ${(error as Error).message}`, error);
    const { line, column } = lineAndColumn(text, found.offset);
    throw invalidTranscript(file, `line ${line + firstLine - 1}, column ${column}`, `malformed JSON: ${found.reason}`, error);
  }
  checkJsonNesting(value, text, file, firstLine);
  return value;
}
