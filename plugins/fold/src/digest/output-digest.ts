import type { NameIndex } from '../identifiers/name-index.js';
import { extractIdentifiers } from '../identifiers/extract-identifiers.js';
import { jsonFacts } from './json-facts.js';
import { namesToList } from './name-list.js';

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

/**
 * What a person skimming a tool output would note, in a few lines: its size and exit status, the
 * error and count lines (`12 passed, 2 failed`), the symbols it defines and the names it mentions
 * that are not in view elsewhere, best first.
 */
export function outputDigest(
  tag: string,
  output: string,
  isError: boolean | undefined,
  names: { readonly index: NameIndex; readonly visible: ReadonlySet<string> },
  options: OutputDigestOptions,
): string {
  const lines = output.split('\n');
  const status = exitStatus(output, isError);
  const out = [`${tag} ${lines.length} lines${status ? `, ${status}` : ''}`];

  const notable: string[] = [];
  for (const line of lines) {
    if (!ERROR_LINE.test(line) && !COUNT_LINE.test(line)) continue;
    const kept = cut(line);
    if (!notable.includes(kept)) notable.push(kept);
  }
  out.push(...notable.slice(-options.maxLines));

  const facts = jsonFacts(output, options.maxNames);
  if (facts !== undefined) {
    if (facts.length > 0) out.push(`facts: ${facts.join(', ')}`);
    return out.join('\n');
  }

  const symbols = definedSymbols(lines);
  const shown = new Set([...names.visible, ...notable.flatMap((line) => [...extractIdentifiers(line).keys()])]);
  const defines = namesToList(symbols, names.index, shown, options.maxNames);
  if (defines.length > 0) out.push(`defines: ${defines.join(', ')}`);
  for (const symbol of defines) shown.add(symbol);
  const mentioned = namesToList(extractIdentifiers(output).keys(), names.index, shown, Math.max(0, options.maxNames - defines.length));
  if (mentioned.length > 0) out.push(`names: ${mentioned.join(', ')}`);
  return out.join('\n');
}
