import { guessLanguage } from '../grammar/guess-language.js';
import { languageForFenceTag } from '../grammar/language-id.js';
import type { CodeView } from './code-view.js';
import { MIN_VIEW_ROWS } from './detect-tool-view.js';
import { plainLines } from './line-number-prefix.js';

const FENCE_OPEN = /^( {0,3})(`{3,}|~{3,})([^`\n]*)$/;
const DIFF_TAGS = /^(diff|patch|udiff)$/i;

function looksLikePatch(code: string): boolean {
  const lines = code.split('\n');
  return lines.some((line) => /^@@ -\d+/.test(line)) || /^(diff --git|--- \S|\*\*\* Begin Patch)/.test(lines[0] ?? '');
}

/**
 * Fenced code blocks in assistant text, with the language from the fence tag or guessed from the
 * content. Patches and diffs the assistant wrote are never returned: they are its work, not a view.
 */
export function findCodeBlocks(text: string, messageIndex: number, partIndex: number): CodeView[] {
  const views: CodeView[] = [];
  const rows = text.split('\n');
  let offset = 0;
  for (let row = 0; row < rows.length; row++) {
    const open = FENCE_OPEN.exec(rows[row]!);
    const rowStart = offset;
    offset += rows[row]!.length + 1;
    if (!open) continue;
    const fence = open[2]!;
    const closeRow = rows.findIndex(
      (line, index) => index > row && line.trim().startsWith(fence[0]!.repeat(fence.length)) && line.trim().replace(/[`~]/g, '') === '',
    );
    if (closeRow < 0) break;
    const bodyRows = rows.slice(row + 1, closeRow);
    const codeStart = rowStart + rows[row]!.length + 1;
    const code = bodyRows.join('\n');
    // Skip to the closing fence whatever happens to this block.
    for (let skipped = row + 1; skipped <= closeRow; skipped++) offset += rows[skipped]!.length + 1;
    row = closeRow;
    const tag = open[3]!.trim();
    if (bodyRows.length < MIN_VIEW_ROWS || DIFF_TAGS.test(tag) || looksLikePatch(code)) continue;
    const language = (tag ? languageForFenceTag(tag) : undefined) ?? guessLanguage(code);
    views.push({
      kind: 'code-block',
      messageIndex,
      partIndex,
      ...(language ? { language } : {}),
      before: text.slice(0, codeStart),
      lines: plainLines(bodyRows),
      after: text.slice(codeStart + code.length),
      wholeFile: false,
    });
  }
  return views;
}
