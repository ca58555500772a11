import type { FoldPlan, RowState } from './fold-plan.js';

/** Rows kept at the top of a view of unknown language: shebangs, headers, module docs. */
const HEAD_ROWS = 5;

/** Rows that look like a definition, declaration or import in most languages. */
const SIGNATURE_PATTERN =
  /^\s*(?:(?:export|pub(?:\(\w+\))?|public|private|protected|internal|static|async|abstract|final|override|open|data|sealed|suspend)\s+)*(?:def|class|object|function|func|fun|fn|interface|struct|enum|trait|impl|module|namespace|package|import|from|using|use|require|type|sub|proc)\b|^\s*#\s*(?:include|define)\b|^\[[\w .-]+\]\s*$/;

const COMMENT_PATTERN = /^\s*(#(?!include|define|if|endif|else|pragma|!)|\/\/|\/\*|\*\/?(\s|$)|--\s|;)/;

/**
 * Line-based folding for languages without a grammar: keep the head and rows that look like
 * signatures, drop comment rows first, fold everything else.
 */
export function planByLines(code: string): FoldPlan {
  const states: RowState[] = code.split('\n').map((line, row) => {
    if (COMMENT_PATTERN.test(line)) return 'comment';
    if (row < HEAD_ROWS) return 'code';
    if (SIGNATURE_PATTERN.test(line)) return 'code';
    return 'fold';
  });
  return { states, trailingComments: new Map(), method: 'lines' };
}
