/**
 * How each row of a code view is treated when folding:
 * - `code`: kept (signatures, imports, short statements);
 * - `comment`: a comment or docstring row, dropped first;
 * - `fold`: a row inside a body or long statement, replaced by a `...` marker.
 */
export type RowState = 'code' | 'comment' | 'fold';

export interface FoldPlan {
  readonly states: RowState[];
  /** Row -> column (UTF-16 units, in the row's code text) where a trailing comment starts. */
  readonly trailingComments: Map<number, number>;
  readonly method: 'tree-sitter' | 'lines';
}
