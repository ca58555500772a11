import type { ToolCallPart } from '@ollm/core';
import { guessLanguage } from '../grammar/guess-language.js';
import { languageForPath } from '../grammar/language-id.js';
import type { CodeView } from './code-view.js';
import { MIN_VIEW_ROWS } from './detect-tool-view.js';
import { plainLines } from './line-number-prefix.js';
import { resolveViewPath } from './read-command.js';

const HEREDOC_WRITE = /\bcat\s+>\s*(['"]?)([^\s'"|&;<>]+)\1\s*<<-?\s*(['"]?)(\w+)\3[^\n]*\n/g;

/** The shell command of a tool call, when its input is `{ command: string }`. */
export function commandOf(call: ToolCallPart): string | undefined {
  const input = call.input as { command?: unknown } | undefined;
  return typeof input?.command === 'string' ? input.command : undefined;
}

/**
 * Scripts an agent wrote with `cat > FILE << 'EOF'` in a shell call: code it wrote to run, not a
 * view of the repository. Patches and diffs written that way are not returned.
 */
export function findHeredocWrites(call: ToolCallPart, messageIndex: number, partIndex: number): CodeView[] {
  const command = commandOf(call);
  if (command === undefined || !command.includes('<<')) return [];
  const views: CodeView[] = [];
  for (const match of command.matchAll(HEREDOC_WRITE)) {
    const bodyStart = match.index + match[0].length;
    const delimiter = match[4]!;
    const end = command.indexOf(`\n${delimiter}`, bodyStart - 1);
    if (end < bodyStart) continue;
    const body = command.slice(bodyStart, end);
    const rows = body.split('\n');
    const path = resolveViewPath(match[2]!);
    if (rows.length < MIN_VIEW_ROWS || /\.(diff|patch)$/.test(path) || /^(diff --git|--- |@@ -)/m.test(body)) continue;
    const language = languageForPath(path) ?? guessLanguage(body);
    views.push({
      kind: 'script',
      messageIndex,
      partIndex,
      path,
      ...(language ? { language } : {}),
      before: command.slice(0, bodyStart),
      lines: plainLines(rows, 1),
      after: command.slice(end),
      wholeFile: true,
    });
  }
  return views;
}
