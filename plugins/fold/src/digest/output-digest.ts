import { extractIdentifiers } from '../identifiers/extract-identifiers.js';
import { jsonFacts } from './json-facts.js';
import { NO_MEMO, type TextMemo } from '../cache/text-memo.js';
import type { TextMeasure } from '../turns/text-measure.js';
import type { NameLister } from './name-list.js';

const RETURN_CODE = /<returncode>\s*(-?\d+)\s*<\/returncode>|\b(?:exit(?: code| status)?|returncode)[:= ]\s*(-?\d+)\b/i;
const ERROR_LINE = /\b(?:[A-Z]\w*(?:Error|Exception)|Traceback|FAILED|ERROR|fatal|panic|No such file)\b|\bFAIL:/;
const COUNT_LINE = /\b\d+ (?:passed|failed|errors?|skipped|xfailed|warnings?)\b|^Ran \d+ tests?\b|^(?:OK|FAILED)\b.*$/;
const DEFINITION = /^\s*(?:\d+[:-]\s*)?(?:export\s+)?(?:async\s+)?(?:def|class|function|fn|func|interface|struct|enum|trait)\s+([A-Za-z_]\w*)/;

/** Characters of an error or count line kept in a digest. */
const LINE_CHARACTERS = 160;

export interface OutputDigestOptions {
  /** Names listed at most. */
  readonly maxNames: number;
  /** Error and count lines kept at most (the last ones: a traceback ends with its error). */
  readonly maxLines: number;
}

function cut(line: string): string {
  const trimmed = line.trim();
  return trimmed.length <= LINE_CHARACTERS ? trimmed : `${trimmed.slice(0, LINE_CHARACTERS - 1)}…`;
}

/** Exit status the output or the tool reports: SWE-agent's `<returncode>`, an `exit N` line, or the error flag. */
export function exitStatus(output: string, isError: boolean | undefined): string | undefined {
  const match = RETURN_CODE.exec(output);
  const code = match?.[1] ?? match?.[2];
  if (code !== undefined) return `exit ${code}`;
  return isError ? 'error' : undefined;
}

/** Symbols an output defines (a file view's `def` / `class` / `function` lines). */
export function definedSymbols(lines: readonly string[]): string[] {
  const symbols: string[] = [];
  for (const line of lines) {
    const match = DEFINITION.exec(line);
    if (match && !symbols.includes(match[1]!)) symbols.push(match[1]!);
  }
  return symbols;
}

/** What a digest takes from the output alone (everything but the names chosen and the reference). */
interface DigestParts {
  /** `31 lines, exit 0` */
  readonly size: string;
  /** The error and count lines kept (the last `maxLines`). */
  readonly notable: readonly string[];
  /** Names the error and count lines show (all of them, not only those kept). */
  readonly notableNames: readonly string[];
  /** For a JSON document: its facts; the digest lists no names then. */
  readonly facts: readonly string[] | undefined;
  readonly symbols: readonly string[];
  readonly names: readonly string[];
}

function digestParts(output: string, isError: boolean | undefined, options: OutputDigestOptions): DigestParts {
  const lines = output.split('\n');
  const status = exitStatus(output, isError);
  const notable: string[] = [];
  for (const line of lines) {
    if (!ERROR_LINE.test(line) && !COUNT_LINE.test(line)) continue;
    const kept = cut(line);
    if (!notable.includes(kept)) notable.push(kept);
  }
  const facts = jsonFacts(output, options.maxNames);
  return {
    size: `${lines.length} lines${status ? `, ${status}` : ''}`,
    notable: notable.slice(-options.maxLines),
    notableNames: facts !== undefined ? [] : notable.flatMap((line) => [...extractIdentifiers(line).keys()]),
    facts,
    symbols: facts !== undefined ? [] : definedSymbols(lines),
    names: facts !== undefined ? [] : [...extractIdentifiers(output).keys()],
  };
}

/** A text written, with its tokens (when measured as it was written) and the identifiers it shows. */
export interface MeasuredText {
  readonly text: string;
  readonly tokens: number | undefined;
  readonly names: readonly string[];
}

/**
 * What a person skimming a tool output would note, in a few lines: its size and exit status, the
 * error and count lines (`12 passed, 2 failed`), the symbols it defines and the names it mentions
 * that are not in view elsewhere, best first. `memo` keeps what is read from the output alone.
 */
export function outputDigest(
  tag: string,
  output: string,
  isError: boolean | undefined,
  names: { readonly lister: NameLister; readonly visible: ReadonlySet<string> },
  options: OutputDigestOptions,
  memo: TextMemo = NO_MEMO,
): string {
  return measuredOutputDigest(tag, output, isError, names, options, memo).text;
}

/** `outputDigest`, measured with `measure` as it is written (without one, not measured). */
export function measuredOutputDigest(
  tag: string,
  output: string,
  isError: boolean | undefined,
  names: { readonly lister: NameLister; readonly visible: ReadonlySet<string> },
  options: OutputDigestOptions,
  memo: TextMemo = NO_MEMO,
  measure?: TextMeasure,
): MeasuredText {
  const parts = memo.of(`output-digest ${String(isError)} ${options.maxLines} ${options.maxNames}`, output, (text) => digestParts(text, isError, options));
  const head = [`${tag} ${parts.size}`, ...parts.notable].join('\n');
  if (parts.facts !== undefined) {
    const text = parts.facts.length > 0 ? `${head}\nfacts: ${parts.facts.join(', ')}` : head;
    return { text, tokens: measure?.text(text), names: measure?.identifiers(text) ?? [] };
  }

  const shown = new Set([...names.visible, ...parts.notableNames]);
  const defines = names.lister.list(parts.symbols, shown, options.maxNames);
  for (const symbol of defines) shown.add(symbol);
  const mentioned = names.lister.list(parts.names, shown, Math.max(0, options.maxNames - defines.length));
  const lines = [head];
  if (defines.length > 0) lines.push(`${DEFINES_LEAD} ${defines.join(', ')}`);
  if (mentioned.length > 0) lines.push(`${NAMES_LEAD} ${mentioned.join(', ')}`);
  const text = lines.join('\n');
  if (measure === undefined) return { text, tokens: undefined, names: [] };

  // The lines before the lists, then each list: where one ends and the next begins, the counts add up.
  let tokens: number | undefined = lines.length === 1 ? measure.text(head) : measure.text(`${head}\n`);
  const shownNames = [...measure.identifiers(head)];
  for (const [lead, list, end] of [
    [DEFINES_LEAD, defines, mentioned.length > 0 ? '\n' : ''],
    [NAMES_LEAD, mentioned, ''],
  ] as const) {
    if (list.length === 0) continue;
    const listed = tokens === undefined ? undefined : measure.listed(lead, list, end);
    tokens = tokens === undefined || listed === undefined ? undefined : tokens + listed;
    shownNames.push(...measure.identifiers(lead));
    for (const name of list) shownNames.push(...measure.identifiers(name));
  }
  return { text, tokens, names: shownNames };
}

const DEFINES_LEAD = 'defines:';
const NAMES_LEAD = 'names:';
