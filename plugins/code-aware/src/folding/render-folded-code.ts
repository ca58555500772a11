import type { CodeLine } from '../views/code-view.js';
import type { FoldPlan } from './fold-plan.js';

/** `comments`: drop comments only; `signatures`: also fold bodies and long statements. */
export type FoldLevel = 'comments' | 'signatures';

export interface FoldedCode {
  readonly lines: string[];
  readonly foldedRows: number;
  readonly commentRows: number;
}

function indentOf(text: string): string {
  return /^[ \t]*/.exec(text)![0];
}

/**
 * Renders a view under a fold plan. Rows in `keptRows` (edited or cited later) stay exactly as
 * shown. A run of folded rows becomes one `<indent>... N lines folded` marker; a run of a single
 * row is kept, as its marker would cost about as much.
 */
export function renderFoldedCode(lines: readonly CodeLine[], plan: FoldPlan, level: FoldLevel, keptRows: ReadonlySet<number>): FoldedCode {
  const output: string[] = [];
  let foldedRows = 0;
  let commentRows = 0;
  let run: number[] = [];
  let lastWasBlank = false;

  const flushRun = (): void => {
    const nonBlank = run.filter((row) => lines[row]!.text.trim() !== '');
    if (nonBlank.length <= 1) {
      for (const row of nonBlank) output.push(lines[row]!.prefix + lines[row]!.text);
    } else {
      const first = lines[run[0]!]!;
      const span = run[run.length - 1]! - run[0]! + 1;
      const where = first.number === undefined ? '' : ` (${first.number}-${first.number + span - 1})`;
      output.push(`${indentOf(lines[nonBlank[0]!]!.text)}... ${span} lines folded${where}`);
      foldedRows += span;
    }
    lastWasBlank = false;
    run = [];
  };

  for (const [row, line] of lines.entries()) {
    const state = keptRows.has(row) ? 'code' : (plan.states[row] ?? 'code');
    if (state === 'comment') {
      commentRows++;
      continue;
    }
    if (state === 'fold' && level === 'signatures') {
      run.push(row);
      continue;
    }
    if (run.length > 0) flushRun();
    const cut = keptRows.has(row) ? undefined : plan.trailingComments.get(row);
    const text = cut === undefined ? line.text : line.text.slice(0, cut).trimEnd();
    // Blank rows left between kept rows carry nothing once neighbours were folded.
    const blank = text.trim() === '';
    if (blank && lastWasBlank) continue;
    lastWasBlank = blank;
    output.push(line.prefix + text);
  }
  if (run.length > 0) flushRun();
  return { lines: output, foldedRows, commentRows };
}
