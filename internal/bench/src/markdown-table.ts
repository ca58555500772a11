/** A GitHub Markdown table; `align` per column: `l` or `r`. */
export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[], align: string): string {
  const separator = headers.map((_, index) => (align[index] === 'r' ? '--:' : '---'));
  return [headers, separator, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

export function formatNumber(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return '—';
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** Milliseconds with precision that suits the size: 0.012, 1.35, 240. */
export function formatMilliseconds(value: number): string {
  if (!Number.isFinite(value)) return '—';
  if (value < 0.1) return formatNumber(value, 4);
  if (value < 10) return formatNumber(value, 2);
  return formatNumber(value, 0);
}

export function formatPercent(share: number | undefined, digits = 0): string {
  return share === undefined || !Number.isFinite(share) ? '—' : `${formatNumber(share * 100, digits)}%`;
}
