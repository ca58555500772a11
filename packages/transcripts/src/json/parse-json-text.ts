import { invalidTranscript } from '../validation/invalid-transcript.js';
import { findJsonSyntaxError, lineAndColumn } from './find-json-syntax-error.js';

/**
 * `JSON.parse` whose error names the line and column. `firstLine` shifts line numbers when
 * the text is one line of a JSONL file.
 */
export function parseJsonText(text: string, file: string, firstLine = 1): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const found = findJsonSyntaxError(text);
    if (!found) throw invalidTranscript(file, `line ${firstLine}`, `malformed JSON: ${(error as Error).message}`, error);
    const { line, column } = lineAndColumn(text, found.offset);
    throw invalidTranscript(file, `line ${line + firstLine - 1}, column ${column}`, `malformed JSON: ${found.reason}`, error);
  }
}
