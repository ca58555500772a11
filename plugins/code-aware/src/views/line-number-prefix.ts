import type { CodeLine } from './code-view.js';

/** Line-number columns tools print: `cat -n`/`nl`/editor (`   12\t`), Claude Code (`12→`), `grep -n` (`12:` / `12-`). */
const PREFIX_PATTERNS: readonly RegExp[] = [/^(\s*(\d+)\t)/, /^(\s*(\d+)→)/, /^((\d+)[:-])/, /^(\s*(\d+) \| ?)/];

/** Share of non-blank rows that must carry a prefix before the view counts as numbered. */
const NUMBERED_SHARE = 0.8;

/**
 * Splits rows into their line-number prefix (kept for display) and the code (parsed). Rows
 * without a prefix (grep's `--` separators, nl's unnumbered blank rows) keep their text as code,
 * except separators, which become prefix-only rows. Undefined when the rows are not numbered.
 */
export function splitNumberedLines(rows: readonly string[]): CodeLine[] | undefined {
  const candidates = rows.filter((row) => row.trim() !== '' && row !== '--');
  if (candidates.length === 0) return undefined;
  for (const pattern of PREFIX_PATTERNS) {
    const matching = candidates.filter((row) => pattern.test(row)).length;
    if (matching / candidates.length < NUMBERED_SHARE) continue;
    return rows.map((row) => {
      if (row === '--') return { prefix: row, text: '' };
      const match = pattern.exec(row);
      if (!match) return { prefix: '', text: row };
      return { prefix: match[1]!, text: row.slice(match[1]!.length), number: Number(match[2]) };
    });
  }
  return undefined;
}

/** Rows of an unnumbered view; numbered from `firstLine` when the view is a contiguous range. */
export function plainLines(rows: readonly string[], firstLine?: number): CodeLine[] {
  return rows.map((row, index) => ({
    prefix: '',
    text: row,
    ...(firstLine === undefined ? {} : { number: firstLine + index }),
  }));
}
