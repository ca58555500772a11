export type ColumnAlignment = 'left' | 'right';

export interface TableOptions {
  /** Alignment per column; columns not listed align left. */
  readonly align?: readonly ColumnAlignment[];
  /** Indentation before each row. */
  readonly indent?: string;
}

/**
 * Plain-text table: columns padded to their widest cell, two spaces apart, no borders, so the
 * output stays readable in a terminal and easy to grep.
 */
export function renderTable(rows: readonly (readonly string[])[], options: TableOptions = {}): string {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, column) => {
      widths[column] = Math.max(widths[column] ?? 0, cell.length);
    });
  }
  const indent = options.indent ?? '';
  return rows
    .map((row) => {
      const cells = row.map((cell, column) => {
        const width = widths[column] ?? 0;
        return options.align?.[column] === 'right' ? cell.padStart(width) : cell.padEnd(width);
      });
      return `${indent}${cells.join('  ')}`.trimEnd();
    })
    .join('\n');
}
