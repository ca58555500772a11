import { posix } from 'node:path';
import { shellWords, splitCommandLine } from './shell-words.js';

/** A shell command whose output is (part of) one file. */
export interface ReadCommand {
  readonly path: string;
  /** The whole file, unfiltered (`cat FILE`). */
  readonly wholeFile: boolean;
  /** The output carries line-number prefixes (`cat -n`, `nl`, `grep -n`). */
  readonly numbered: boolean;
  /** Line number of the first output row of an unnumbered, contiguous view (`sed -n '40,80p'`). */
  readonly firstLine?: number;
}

interface Reader {
  readonly file: string;
  readonly numbered: boolean;
  readonly firstLine?: number;
  readonly contiguous: boolean;
  /** Every row of the file (`cat`, `nl`), until a filter says otherwise. */
  readonly whole?: boolean;
}

const OUTPUTLESS = new Set(['cd', 'export', 'set', 'source', '.', 'true', 'pushd', 'popd']);

function operands(words: readonly string[], valueFlags: RegExp): string[] {
  const result: string[] = [];
  for (let index = 1; index < words.length; index++) {
    const word = words[index]!;
    if (word === '--') continue;
    if (word.startsWith('-') && word.length > 1) {
      if (valueFlags.test(word)) index++;
      continue;
    }
    result.push(word);
  }
  return result;
}

function parseSedRange(script: string): { first: number } | undefined {
  const match = /^(\d+)(?:,(\d+|\$))?p$/.exec(script.trim());
  return match ? { first: Number(match[1]) } : undefined;
}

/** The programs `readerOf` reads a file view from: any other shows no file. */
const READERS: ReadonlySet<string> = new Set(['cat', 'nl', 'sed', 'head', 'tail', 'grep']);

function readerOf(words: readonly string[]): Reader | undefined {
  const [program, ...rest] = words;
  const flags = rest.filter((word) => word.startsWith('-'));
  switch (program) {
    case 'cat':
    case 'nl': {
      const files = operands(words, /^-[bsvw]$/);
      if (files.length !== 1) return undefined;
      const numbered = program === 'nl' || flags.some((flag) => /^-[a-zA-Z]*n/.test(flag));
      return { file: files[0]!, numbered, firstLine: 1, contiguous: true, whole: true };
    }
    case 'sed': {
      if (!flags.includes('-n')) return undefined;
      const [script, ...files] = operands(words, /^-e$/);
      const range = script === undefined ? undefined : parseSedRange(script);
      if (!range || files.length !== 1) return undefined;
      return { file: files[0]!, numbered: false, firstLine: range.first, contiguous: true };
    }
    case 'head': {
      const files = operands(words, /^-[nc]$/);
      return files.length === 1 ? { file: files[0]!, numbered: false, firstLine: 1, contiguous: true } : undefined;
    }
    case 'tail': {
      const files = operands(words, /^-[nc]$/);
      const fromIndex = rest.findIndex((word) => word === '-n');
      const from = fromIndex >= 0 ? /^\+(\d+)$/.exec(rest[fromIndex + 1] ?? '') : null;
      if (files.length !== 1) return undefined;
      return { file: files[0]!, numbered: false, ...(from ? { firstLine: Number(from[1]) } : {}), contiguous: true };
    }
    case 'grep': {
      // Only a single-file grep with -n and context lines shows a stretch of code worth folding.
      const numbered = flags.some((flag) => /^-[a-zA-Z]*n/.test(flag) || flag === '--line-number');
      const context = flags.some((flag) => /^-[a-zA-Z]*[ABC]\d*$|^--context/.test(flag));
      const recursive = flags.some((flag) => /^-[a-zA-Z]*[rR]/.test(flag));
      const [, ...files] = operands(words, /^-[a-zA-Z]*[ABCem]$/);
      if (!numbered || !context || recursive || files.length !== 1) return undefined;
      return { file: files[0]!, numbered: true, contiguous: false };
    }
    default:
      return undefined;
  }
}

/** Applies a filter stage (`| grep -n`, `| head`, `| sed -n`) to what the reader produced. */
function filtered(reader: Reader, words: readonly string[]): Reader | undefined {
  const [program, ...rest] = words;
  const numberedFlag = rest.some((word) => /^-[a-zA-Z]*n/.test(word) || word === '--line-number');
  switch (program) {
    case 'grep':
      // `cat FILE | grep -n X -A 20` numbers rows of the whole file: real line numbers.
      return { ...reader, numbered: reader.numbered || (numberedFlag && reader.firstLine === 1 && reader.contiguous), contiguous: false };
    case 'head':
      return reader;
    case 'tail':
      return { ...reader, contiguous: false };
    case 'sed': {
      const range = parseSedRange(operands(words, /^-e$/)[0] ?? '');
      if (!rest.includes('-n') || !range) return undefined;
      if (reader.numbered || !reader.contiguous || reader.firstLine === undefined) return { ...reader, contiguous: false };
      return { ...reader, firstLine: reader.firstLine + range.first - 1 };
    }
    case 'cat':
    case 'nl':
      if (program === 'nl' || numberedFlag) {
        return { ...reader, numbered: reader.numbered || (reader.firstLine === 1 && reader.contiguous) };
      }
      return reader;
    default:
      return undefined;
  }
}

function hasWrite(statement: string): boolean {
  const unquoted = statement.replace(/'[^']*'|"(?:\\.|[^"\\])*"/g, '');
  return /<<|(^|[^0-9&>])>/.test(unquoted) || /\bsed\s+(-\w+\s+)*-i/.test(unquoted) || /\btee\b/.test(unquoted);
}

/**
 * Recognises a command that shows one file: `cat [-n] FILE`, `nl -ba FILE`, `sed -n 'a,bp' FILE`,
 * `head`/`tail FILE`, `grep -n -A N X FILE`, optionally after `cd DIR &&` and followed by filters
 * (`| grep -n`, `| head`, `| sed -n`). Anything that writes or runs other programs is not a view.
 */
export function parseReadCommand(command: string): ReadCommand | undefined {
  if (hasWrite(command)) return undefined;
  let directory: string | undefined;
  let found: { reader: Reader; directory: string | undefined } | undefined;
  for (const stages of splitCommandLine(command)) {
    // The program and its first argument decide most statements (`python - <<EOF …` is not read on).
    const head = shellWords(stages[0] ?? '', 2);
    if (head[0] === 'cd' && stages.length === 1) {
      const target = head[1] ?? '/';
      directory = posix.isAbsolute(target) || directory === undefined ? target : posix.join(directory, target);
      continue;
    }
    if (head[0] === undefined || OUTPUTLESS.has(head[0])) continue;
    if (found) return undefined; // two commands print: the output is not one file
    if (!READERS.has(head[0])) return undefined;
    let reader = readerOf(shellWords(stages[0]!));
    for (const stage of stages.slice(1)) {
      if (!reader) break;
      reader = filtered({ ...reader, whole: false }, shellWords(stage));
    }
    if (!reader) return undefined;
    found = { reader, directory };
  }
  if (!found) return undefined;
  const { reader } = found;
  return {
    path: resolveViewPath(reader.file, found.directory),
    wholeFile: reader.whole === true,
    numbered: reader.numbered,
    ...(reader.firstLine !== undefined && reader.contiguous ? { firstLine: reader.firstLine } : {}),
  };
}

/** Normalises a path shown by a command, made absolute against the `cd` directory when known. */
export function resolveViewPath(path: string, directory?: string): string {
  const joined = directory && !posix.isAbsolute(path) ? posix.join(directory, path) : path;
  const normalised = posix.normalize(joined);
  return normalised.length > 1 && normalised.endsWith('/') ? normalised.slice(0, -1) : normalised;
}
