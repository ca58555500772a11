import type { FoldPlan } from '../folding/fold-plan.js';
import { planByLines } from '../folding/plan-by-lines.js';
import { planWithTree } from '../folding/plan-with-tree.js';
import { renderFoldedCode, type FoldLevel } from '../folding/render-folded-code.js';
import { viewLineRange, type CodeView } from '../views/code-view.js';

/** How far a view is folded: to a reference to a later view, or by its own content. */
export type ViewFoldLevel = 'reference' | FoldLevel;

/** Plans a view's folding once: tree-sitter for known languages, line patterns otherwise. */
export async function planView(view: CodeView): Promise<FoldPlan> {
  // The tool's own notes (`<elided_chars>`) are blanked so they do not derail the parser.
  const code = view.lines.map((line, row) => (view.markerRows?.has(row) ? '' : line.text)).join('\n');
  const plan = view.language ? await planWithTree(code, view.language, { script: view.kind === 'script' }) : undefined;
  return plan ?? planByLines(code);
}

function describeRange(view: CodeView): string {
  const range = viewLineRange(view);
  const where = view.path ?? 'code block';
  return range ? `${where} lines ${range[0]}-${range[1]}` : where;
}

export interface FoldViewRequest {
  readonly view: CodeView;
  readonly plan: FoldPlan;
  readonly level: ViewFoldLevel;
  readonly keptRows: ReadonlySet<number>;
  /** How to get the original back, e.g. `ollm recover 1c95b1edf98b`. */
  readonly recovery: string;
  /** Message index of the later view that shows this code, for `reference`. */
  readonly latestAt?: number;
}

/** The folded code region of a view (without the view's `before`/`after`). */
export function foldedRegion(request: FoldViewRequest): string {
  const { view, plan, level, keptRows, recovery: recover } = request;
  if (level === 'reference') {
    return `[earlier view of ${describeRange(view)}, folded; latest view at message ${request.latestAt}; ${recover}]`;
  }
  const folded = renderFoldedCode(view.lines, plan, level, view.markerRows ? new Set([...keptRows, ...view.markerRows]) : keptRows);
  const language = plan.method === 'lines' ? `${view.language ?? 'unknown language'}, by lines` : view.language;
  const what =
    level === 'comments'
      ? 'comments removed'
      : `comments and bodies folded; signatures, imports${keptRows.size > 0 ? `, ${keptRows.size} edited/cited lines` : ''} kept`;
  const subject = view.kind === 'code-block' ? 'code block' : view.kind === 'script' ? `script ${view.path}` : `view of ${describeRange(view)}`;
  return [`[folded ${subject} (${language}): ${what}; ${recover}]`, ...folded.lines].join('\n');
}
