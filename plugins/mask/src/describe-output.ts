/** Longest hint line kept in a placeholder (characters). */
const HINT_CHARACTERS = 90;
const RETURN_CODE = /^\s*<returncode>(-?\d+)<\/returncode>/;
// SWE-agent / mini-swe-agent wrap command output in these tags; they are not content.
const LEADING_TAG = /^<\/?(returncode|output|output_head|output_tail|elided_chars|warning)>/;
const TRAILING_TAG = /<\/?(output|output_head|output_tail|elided_chars|warning)>$/;
const TRACEBACK = /^Traceback \(most recent call last\):/m;
// mini-swe-agent's notice that it cut a long output to head and tail: say so, show the content.
const TOO_LONG_WARNING = /<warning>[\s\S]*?<\/warning>/;

/** Number of lines of `output` (a trailing newline does not start a new line). */
export function countLines(output: string): number {
  if (output.length === 0) return 0;
  const lines = output.split('\n').length;
  return output.endsWith('\n') ? lines - 1 : lines;
}

/**
 * A one-line hint of what an output was: the return code and a line of a SWE-agent output, the
 * shape of a JSON output (tau-bench), else a line of text. The line is the first one, except for
 * failures (non-zero return code, error flag, a Python traceback), where the last line names the
 * error and the first is usually just `Traceback (most recent call last):`.
 */
export function describeOutput(output: string, isError = false): string {
  const returnCode = RETURN_CODE.exec(output);
  if (returnCode) {
    let body = output.slice(returnCode[0].length);
    const truncated = TOO_LONG_WARNING.test(body);
    if (truncated) body = body.replace(TOO_LONG_WARNING, '');
    const failed = isError || returnCode[1] !== '0' || TRACEBACK.test(body);
    return `returncode ${returnCode[1]}; ${truncated ? 'too long, head and tail shown; ' : ''}${describeLine(body, failed) ?? 'no output'}`;
  }
  const json = describeJson(output);
  if (json !== undefined) return json;
  return describeLine(output, isError || TRACEBACK.test(output)) ?? 'blank output';
}

function describeLine(text: string, failed: boolean): string | undefined {
  const lines = text.split('\n').map(stripTags).filter((line) => line.length > 0);
  const line = failed ? lines.at(-1) : lines[0];
  if (line === undefined) return undefined;
  return `${failed && lines.length > 1 ? 'last' : 'first'} line: ${JSON.stringify(shorten(line, HINT_CHARACTERS))}`;
}

function stripTags(line: string): string {
  let content = line.trim();
  while (LEADING_TAG.test(content)) content = content.replace(LEADING_TAG, '').trim();
  while (TRAILING_TAG.test(content)) content = content.replace(TRAILING_TAG, '').trim();
  return content;
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

/** `text` on one line, cut to `limit` characters with an ellipsis. */
export function shorten(text: string, limit: number): string {
  const oneLine = text.replace(/\s*\n\s*/g, ' ⏎ ').replace(/\s+/g, ' ').trim();
  return oneLine.length <= limit ? oneLine : `${oneLine.slice(0, limit - 1)}…`;
}
