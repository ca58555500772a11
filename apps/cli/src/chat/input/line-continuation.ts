export interface SplitLine {
  /** The line with its trailing backslashes resolved. */
  readonly text: string;
  /** True when the line ended with an unpaired backslash: the input goes on on the next line. */
  readonly continues: boolean;
}

/**
 * The end-of-line escape, as in shells but only at the very end of a line: each pair of trailing
 * backslashes stands for one literal backslash, and a last unpaired one continues the input.
 * Backslashes elsewhere are left alone, so paths and regular expressions type as they are.
 */
export function splitContinuation(line: string): SplitLine {
  let count = 0;
  while (count < line.length && line[line.length - 1 - count] === '\\') count += 1;
  if (count === 0) return { text: line, continues: false };
  return { text: line.slice(0, line.length - count) + '\\'.repeat(Math.floor(count / 2)), continues: count % 2 === 1 };
}
