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
  // Only the first non-empty line matters, or for a failure the last one and whether another
  // precedes it: stripping every line of a long output would be wasted.
  const lines = text.split('\n');
  let line: string | undefined;
  let another = false;
  if (failed) {
    for (let index = lines.length - 1; index >= 0 && !another; index--) {
      const content = stripTags(lines[index]!);
      if (content.length === 0) continue;
      if (line === undefined) line = content;
      else another = true;
    }
  } else {
    for (let index = 0; index < lines.length && line === undefined; index++) {
      const content = stripTags(lines[index]!);
      if (content.length > 0) line = content;
    }
  }
  if (line === undefined) return undefined;
  return `${failed && another ? 'last' : 'first'} line: ${JSON.stringify(shorten(line, HINT_CHARACTERS))}`;
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

function collapseWhitespace(text: string): string {
  return text
    .replace(/\s*\n\s*/g, ' ⏎ ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** `text` on one line, cut to `limit` characters with an ellipsis. */
export function shorten(text: string, limit: number): string {
  // Callers pass whole commands (heredocs that write files) to keep 80 characters of them.
  // Collapsing is local to each run of whitespace, so a head of the text that ends on a
  // non-space collapses to the start of the whole text's collapsed form; once that head is longer
  // than `limit`, the rest cannot change the result.
  const headLength = 4 * limit;
  if (text.length > 2 * headLength) {
    let end = headLength;
    while (end < text.length && /\s/.test(text[end - 1]!)) end++;
    const head = collapseWhitespace(text.slice(0, end));
    if (head.length > limit) return `${head.slice(0, limit - 1)}…`;
  }
  const oneLine = collapseWhitespace(text);
  return oneLine.length <= limit ? oneLine : `${oneLine.slice(0, limit - 1)}…`;
}
