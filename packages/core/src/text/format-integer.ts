/**
 * `17,837`: a number rounded to a whole one, its thousands grouped with commas, as
 * `Intl.NumberFormat('en-US', { maximumFractionDigits: 0 })` writes it, on every machine and locale.
 * Written out rather than through Intl: a process's first number format loads the locale data,
 * about 12 ms, which a CLI run or a fresh compaction would otherwise pay for one note.
 */
export function formatInteger(value: number): string {
  if (!Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? '∞' : '-∞';
  // Halves round away from zero, as Intl does; -0.4 rounds to -0, written `-0`.
  const magnitude = Math.round(Math.abs(value));
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  const digits = magnitude < 1e21 ? String(magnitude) : expandExponent(String(magnitude));
  let grouped = '';
  let end = digits.length;
  for (let start = end - 3; start > 0; start -= 3) {
    grouped = `,${digits.slice(start, end)}${grouped}`;
    end = start;
  }
  return `${sign}${digits.slice(0, end)}${grouped}`;
}

/** `1.5e+22` as `15000000000000000000000`: the shortest digits that read back as the number, as Intl shows them. */
function expandExponent(text: string): string {
  const [mantissa = '', exponent = '0'] = text.split('e+');
  const [whole = '', fraction = ''] = mantissa.split('.');
  return `${whole}${fraction}`.padEnd(whole.length + Number(exponent), '0');
}
