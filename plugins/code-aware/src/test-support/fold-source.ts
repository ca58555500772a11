import type { LanguageId } from '../grammar/language-id.js';
import { planByLines } from '../folding/plan-by-lines.js';
import { planWithTree } from '../folding/plan-with-tree.js';
import { renderFoldedCode, type FoldLevel } from '../folding/render-folded-code.js';
import { plainLines } from '../views/line-number-prefix.js';

/** Folds a source text as a file view starting at line 1 and returns the folded text. */
export async function foldSource(
  code: string,
  language: LanguageId | undefined,
  options: { level?: FoldLevel; keptLines?: readonly number[]; script?: boolean } = {},
): Promise<string> {
  const plan = (language ? await planWithTree(code, language, { script: options.script === true }) : undefined) ?? planByLines(code);
  const keptRows = new Set((options.keptLines ?? []).map((line) => line - 1));
  return renderFoldedCode(plainLines(code.split('\n'), 1), plan, options.level ?? 'signatures', keptRows).lines.join('\n');
}
