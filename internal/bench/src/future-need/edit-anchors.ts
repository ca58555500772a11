import type { Message, ToolCallPart } from '@ollm/core';
import type { Cut } from './cut-points.js';
import { holdsIdentifier } from './identifiers.js';
import { codeLineOf, holdsLine, normaliseLine, toolOutputLines, type OutputLine } from './probe-lines.js';
import { decodedArguments, withEscapesAsSpaces } from './searchable-parts.js';

/** A B probe line is at least this long after normalising: shorter lines (`return x`, `"""`) are in every file. */
export const MINIMUM_ANCHOR_LENGTH = 15;

/**
 * Old code a later edit names. A `line` must be a whole line of some prefix tool output; a
 * `fragment` (sed's OLD, a one-line `.replace` old string) is part of one: every prefix output
 * line holding it is a probe.
 */
export interface OldText {
  readonly kind: 'line' | 'fragment';
  readonly text: string;
}

// ---------------------------------------------------------------- shell words and sed

const TERMINATORS = new Set([';', '&', '|', '\n', '(', ')']);

/**
 * The shell words of `command` from `start` to the end of that simple command (an unquoted `;`,
 * `&`, `|`, newline or parenthesis): quotes removed, `'…'` literal, `"…"` with `\"`, `\\`, `\$`
 * and `` \` `` unescaped, a backslash outside quotes escaping the next character.
 */
export function shellWords(command: string, start = 0): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let index = start;
  const push = () => {
    if (word !== undefined) words.push(word);
    word = undefined;
  };
  while (index < command.length) {
    const char = command[index]!;
    if (char === "'") {
      const end = command.indexOf("'", index + 1);
      const stop = end === -1 ? command.length : end;
      word = (word ?? '') + command.slice(index + 1, stop);
      index = stop + 1;
    } else if (char === '"') {
      let text = '';
      index += 1;
      while (index < command.length && command[index] !== '"') {
        if (command[index] === '\\' && '"\\$`'.includes(command[index + 1] ?? '')) {
          text += command[index + 1];
          index += 2;
        } else text += command[index++];
      }
      word = (word ?? '') + text;
      index += 1;
    } else if (char === '\\' && index + 1 < command.length) {
      if (command[index + 1] !== '\n') word = (word ?? '') + command[index + 1];
      index += 2;
    } else if (TERMINATORS.has(char)) break;
    else if (/\s/.test(char)) {
      push();
      index += 1;
    } else {
      word = (word ?? '') + char;
      index += 1;
    }
  }
  push();
  return words;
}

/**
 * The literal text a sed pattern matches: `^`/`$` anchors dropped, `\X` read as `X` for any
 * non-alphanumeric X. A pattern with regex operators (an unescaped `*` or `[`, or `\` before a
 * letter or digit: `\s`, `\n`, `\1`) matches no one text; its longest literal piece stands for it.
 */
export function sedLiteral(pattern: string): string {
  const body = pattern.replace(/^\^/, '').replace(/(?<!\\)\$$/, '');
  const pieces: string[] = [''];
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index]!;
    const next = body[index + 1];
    if (char === '\\' && next !== undefined) {
      if (/[A-Za-z0-9]/.test(next)) pieces.push('');
      else pieces[pieces.length - 1] += next;
      index += 1;
    } else if (char === '*' || char === '[') {
      // `x*` may match no `x`: the piece ends before it. `[…]` is one character of a set.
      if (char === '*') pieces[pieces.length - 1] = pieces[pieces.length - 1]!.slice(0, -1);
      else {
        const close = body.indexOf(']', index + 2);
        if (close !== -1) index = close;
      }
      pieces.push('');
    } else pieces[pieces.length - 1] += char;
  }
  return pieces.reduce((longest, piece) => (piece.length > longest.length ? piece : longest), '');
}

/** The patterns of every `s` command in a sed script (`s/OLD/NEW/`, any delimiter, after an address or `;`). */
export function sedPatterns(script: string): string[] {
  const patterns: string[] = [];
  for (let index = 0; index < script.length; index += 1) {
    if (script[index] !== 's') continue;
    const previous = script[index - 1];
    if (previous !== undefined && !/[\s;{}\d$,/!]/.test(previous)) continue;
    const delimiter = script[index + 1];
    if (delimiter === undefined || /[\w\s\\]/.test(delimiter)) continue;
    const readUntilDelimiter = (from: number): number => {
      let at = from;
      while (at < script.length && script[at] !== delimiter) at += script[at] === '\\' ? 2 : 1;
      return at;
    };
    const patternEnd = readUntilDelimiter(index + 2);
    if (patternEnd >= script.length) continue;
    const replacementEnd = readUntilDelimiter(patternEnd + 1);
    if (replacementEnd >= script.length) continue;
    patterns.push(script.slice(index + 2, patternEnd));
    index = replacementEnd;
  }
  return patterns;
}

/** The OLD texts of every `sed -i` (or `--in-place`) substitution in a shell command. */
export function sedOldTexts(command: string): string[] {
  const olds: string[] = [];
  for (const match of command.matchAll(/(?<![\w./-])sed(?=\s)/g)) {
    const words = shellWords(command, match.index + 3);
    if (!words.some((word) => /^-[a-zE]*i/.test(word) || word.startsWith('--in-place'))) continue;
    for (const [position, word] of words.entries()) {
      // Options are not scripts; an `-e`'s argument is, and so is any other word (a file name parses to no `s` command).
      if (word.startsWith('-') && words[position - 1] !== '-e') continue;
      olds.push(...sedPatterns(word).map(sedLiteral));
    }
  }
  return olds;
}

// ---------------------------------------------------------------- Python .replace(old, new)

/** A Python string literal at `start` (prefixes r/b/u, single or triple quotes): its value and where it ends. */
export function pythonString(text: string, start: number): { value: string; end: number } | undefined {
  const prefix = /^[rRbBuU]{0,2}/.exec(text.slice(start, start + 2))![0];
  const raw = /r/i.test(prefix);
  let at = start + prefix.length;
  const quote = text.startsWith("'''", at) ? "'''" : text.startsWith('"""', at) ? '"""' : text[at] === "'" || text[at] === '"' ? text[at]! : undefined;
  if (quote === undefined) return undefined;
  at += quote.length;
  let value = '';
  const escapes: Record<string, string> = { n: '\n', t: '\t', r: '\r', '\\': '\\', "'": "'", '"': '"', '\n': '' };
  while (at < text.length && !text.startsWith(quote, at)) {
    if (text[at] === '\n' && quote.length === 1) return undefined;
    if (text[at] === '\\' && at + 1 < text.length) {
      const next = text[at + 1]!;
      value += raw ? `\\${next}` : (escapes[next] ?? `\\${next}`);
      at += 2;
    } else value += text[at++];
  }
  if (at >= text.length) return undefined;
  return { value, end: at + quote.length };
}

/** The value of the last `name = <string literal>` before `before` in `text`, if there is one. */
function assignedString(text: string, name: string, before: number): string | undefined {
  let found: string | undefined;
  const assignment = new RegExp(`(?<![\\w.])${name}\\s*=\\s*(?=[rRbBuU]{0,2}['"])`, 'g');
  for (const match of text.slice(0, before).matchAll(assignment)) {
    const literal = pythonString(text, match.index + match[0].length);
    if (literal) found = literal.value;
  }
  return found;
}

/**
 * The old strings of every `.replace(old, new)` in a script: a string literal, or a name the
 * script assigned a string literal to before (`content.replace(old_code, new_code)`).
 */
export function replaceOldStrings(script: string): string[] {
  const olds: string[] = [];
  for (const match of script.matchAll(/\.replace\(\s*/g)) {
    const at = match.index + match[0].length;
    const literal = pythonString(script, at);
    if (literal) {
      if (/^\s*,/.test(script.slice(literal.end))) olds.push(literal.value);
      continue;
    }
    const name = /^([A-Za-z_]\w*)\s*,/.exec(script.slice(at));
    const value = name ? assignedString(script, name[1]!, match.index) : undefined;
    if (value !== undefined) olds.push(value);
  }
  return olds;
}

// ---------------------------------------------------------------- heredocs and patches

export interface Heredoc {
  /** The file written, without `/testbed/` or `./`. */
  readonly file: string;
  readonly body: readonly string[];
}

/** A path as the prefix's commands would name it: without the `/testbed/` checkout root or a `./`. */
export function repositoryPath(path: string): string {
  return path.replace(/^\/testbed\//, '').replace(/^\.\//, '');
}

/** Every `cat > F <<EOF … EOF` (also `cat <<EOF > F`, `cat >> F`, `tee F`) in a shell command. */
export function heredocs(command: string): Heredoc[] {
  const lines = command.split('\n');
  const found: Heredoc[] = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index]!;
    const opener = /<<-?\s*(['"]?)([A-Za-z_]\w*)\1/.exec(line);
    if (!opener) continue;
    const target = /\bcat\b[^\n]*?>>?\s*(['"]?)([^\s'"<>;&|]+)\1/.exec(line) ?? /\btee\s+(?:-a\s+)?(['"]?)([^\s'"<>;&|]+)\1/.exec(line);
    let end = index + 1;
    while (end < lines.length && lines[end]!.trim() !== opener[2]) end += 1;
    if (target) found.push({ file: repositoryPath(target[2]!), body: lines.slice(index + 1, end) });
    index = end;
  }
  return found;
}

export interface PatchFile {
  readonly path: string;
  /** The `-` (removed) and ` ` (context) lines of its hunks, without the marker. */
  readonly oldLines: readonly string[];
}

/** The files of a git diff and the old lines of each (what the patch removed or kept around its changes). */
export function patchFiles(diff: string): PatchFile[] {
  const files: { path: string; oldLines: string[] }[] = [];
  let inHunk = false;
  for (const line of diff.split('\n')) {
    const header = /^diff --git a\/(\S+) b\/(\S+)/.exec(line);
    if (header) {
      files.push({ path: header[2]!, oldLines: [] });
      inHunk = false;
    } else if (line.startsWith('@@')) inHunk = true;
    else if (inHunk && files.length > 0 && (line.startsWith('-') || line.startsWith(' '))) files[files.length - 1]!.oldLines.push(line.slice(1));
  }
  return files;
}

// A command that changes the files it names: sed -i, a script's .replace, write or open for
// writing, an editor tool's str_replace, patch or git apply. (A heredoc changes the file it writes
// to alone: a test script written with `cat > t.py <<EOF` that reads a file edits no file.)
const EDIT_COMMAND =
  /sed\s+(?:-\S+\s+)*-[a-zE]*i|--in-place|\.replace\(|\.write\(|\bstr_replace\b|\bold_str\b|(?:^|[\s;&|])patch\s+-|\bgit\s+apply\b|\bopen\([^)]*['"][wa]\+?['"]/;

// ---------------------------------------------------------------- the probes

/** The tool calls of `messages`' assistant messages. */
function toolCalls(messages: readonly Message[]): ToolCallPart[] {
  return messages.flatMap((message) => (message.role === 'assistant' ? message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call') : []));
}

/** An editor tool's old text (`old_str`, `old_string`) among a call's arguments. */
function editorOldStrings(part: ToolCallPart): string[] {
  let input: unknown = part.input;
  if (part.rawInput !== undefined) {
    try {
      input = JSON.parse(part.rawInput) as unknown;
    } catch {
      // Not JSON: no named arguments.
    }
  }
  if (input === null || typeof input !== 'object') return [];
  const record = input as Record<string, unknown>;
  return ['old_str', 'old_string'].flatMap((key) => (typeof record[key] === 'string' ? [record[key]] : []));
}

function asLines(text: string): OldText[] {
  return text.split('\n').map((line) => ({ kind: 'line', text: line }));
}

/** A one-line old string is part of a line (as sed's OLD is); a longer one is whole lines. */
function oldString(text: string): OldText[] {
  return text.includes('\n') ? asLines(text) : [{ kind: 'fragment', text }];
}

/** The calls of the prefix by id, so a tool result knows the command that printed it. */
function callsById(messages: readonly Message[]): Map<string, string> {
  return new Map(toolCalls(messages).map((part) => [part.callId, decodedArguments(part)] as const));
}

/**
 * The old code the edits after the cut name (OldText), from the later tool calls: sed -i's OLD,
 * `.replace` old strings, editor `old_str`s; the lines of heredocs that a prefix output of the same
 * file showed; and the `-`/` ` lines of the final patch's files that a later edit command names
 * (EDIT_COMMAND) or a later heredoc writes.
 */
export function laterOldTexts(cut: Cut, submission: string | undefined): OldText[] {
  const later = toolCalls(cut.later);
  const olds: OldText[] = [];
  const commands = later.map((part) => decodedArguments(part));
  for (const [index, part] of later.entries()) {
    const command = commands[index]!;
    olds.push(...sedOldTexts(command).map((text): OldText => ({ kind: 'fragment', text })));
    olds.push(...replaceOldStrings(command).flatMap(oldString));
    olds.push(...editorOldStrings(part).flatMap(oldString));
  }
  const prefixCalls = callsById(cut.prefix);
  const outputsOf = (file: string) =>
    cut.prefix.flatMap((message) =>
      message.parts.flatMap((part) => (part.type === 'tool-result' && holdsIdentifier(prefixCalls.get(part.callId) ?? '', file) ? [part.output] : [])),
    );
  const written = commands.flatMap(heredocs);
  for (const heredoc of written) {
    const shown = new Set(outputsOf(heredoc.file).flatMap((output) => output.split('\n').map((line) => codeLineOf(withEscapesAsSpaces(line)))));
    olds.push(...heredoc.body.filter((line) => shown.has(normaliseLine(withEscapesAsSpaces(line)))).flatMap(asLines));
  }
  const edits = commands.filter((command) => EDIT_COMMAND.test(command));
  const edited = (path: string) => edits.some((command) => holdsIdentifier(command, path)) || written.some((heredoc) => holdsIdentifier(heredoc.file, path));
  for (const file of patchFiles(submission ?? '')) if (edited(file.path)) olds.push(...file.oldLines.map((text): OldText => ({ kind: 'line', text })));
  return olds;
}

/**
 * B, edit anchors: the old-code lines the edits after the cut name (laterOldTexts) that a prefix
 * tool output showed. A `line` counts when some prefix output has it as a line (after normalising;
 * a line number from grep -n, cat -n or nl before it is not part of it); a `fragment` makes a
 * probe of every prefix output line holding it. Each probe is a normalised line of at least
 * MINIMUM_ANCHOR_LENGTH characters, once per cut, and none that a system or user message holds
 * (every valid compaction keeps those).
 */
export function editAnchors(cut: Cut, submission: string | undefined, given: string, outputs: readonly OutputLine[] = toolOutputLines(cut.prefix)): string[] {
  const codeLines = [...new Set(outputs.map((line) => codeLineOf(line.raw)))].filter((line) => line.length >= MINIMUM_ANCHOR_LENGTH);
  const shown = new Set([...codeLines, ...outputs.map((line) => line.normalised)]);
  const probes = new Set<string>();
  for (const old of laterOldTexts(cut, submission)) {
    const text = normaliseLine(withEscapesAsSpaces(old.text));
    if (text.length < MINIMUM_ANCHOR_LENGTH) continue;
    if (old.kind === 'line') {
      if (shown.has(text)) probes.add(text);
    } else for (const line of codeLines) if (line.includes(text)) probes.add(line);
  }
  return [...probes].filter((probe) => !holdsLine(given, probe));
}
