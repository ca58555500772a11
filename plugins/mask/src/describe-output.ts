/** Longest hint line kept in a placeholder (characters). */
const HINT_CHARACTERS = 100;
const RETURN_CODE = /^\s*<returncode>(-?\d+)<\/returncode>/;
// SWE-agent / mini-swe-agent wrap command output in these tags; they are not content.
const WRAPPER_TAG = /^<\/?(returncode|output|output_head|output_tail|elided_chars|warning)>/;

/** Number of lines of `output` (a trailing newline does not start a new line). */
export function countLines(output: string): number {
  if (output.length === 0) return 0;
  const lines = output.split('\n').length;
  return output.endsWith('\n') ? lines - 1 : lines;
}

/**
 * A one-line hint of what an output was: the return code and first line of a SWE-agent output,
 * the shape of a JSON output (tau-bench), else the first non-empty line.
 */
export function describeOutput(output: string): string {
  const returnCode = RETURN_CODE.exec(output);
  if (returnCode) {
    const firstLine = firstContentLine(output.slice(returnCode[0].length));
    return `returncode ${returnCode[1]}; ${firstLine === undefined ? 'no output' : `first line: ${quote(firstLine)}`}`;
  }
  const json = describeJson(output);
  if (json !== undefined) return json;
  const firstLine = firstContentLine(output);
  return firstLine === undefined ? 'blank output' : `first line: ${quote(firstLine)}`;
}

function firstContentLine(text: string): string | undefined {
  for (const line of text.split('\n')) {
    let content = line.trim();
    while (WRAPPER_TAG.test(content)) content = content.replace(WRAPPER_TAG, '').trim();
    if (content.length > 0) return content;
  }
  return undefined;
}

function describeJson(output: string): string | undefined {
  const trimmed = output.trim();
  if (!(trimmed.startsWith('{') || trimmed.startsWith('['))) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return undefined;
  }
  if (Array.isArray(value)) return `JSON array of ${value.length} item${value.length === 1 ? '' : 's'}`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value);
    const shown = shorten(keys.join(', '), HINT_CHARACTERS);
    return `JSON object with ${keys.length} key${keys.length === 1 ? '' : 's'}: ${shown}`;
  }
  return undefined;
}

function quote(line: string): string {
  return JSON.stringify(shorten(line, HINT_CHARACTERS));
}

/** `text` on one line, cut to `limit` characters with an ellipsis. */
export function shorten(text: string, limit: number): string {
  const oneLine = text.replace(/\s*\n\s*/g, ' ⏎ ').replace(/\s+/g, ' ').trim();
  return oneLine.length <= limit ? oneLine : `${oneLine.slice(0, limit - 1)}…`;
}
