// Output reads the same on every machine and locale (17,837), and no run loads Intl's locale data for it.
export { formatInteger } from '@ollm/core';

/** Signed change from `before` to `after`, one decimal: `-50.0%`, `+0.0%`. */
export function formatChange(before: number, after: number): string {
  if (before === 0) return '+0.0%';
  const change = ((after - before) / before) * 100;
  return `${change >= 0 ? '+' : ''}${change.toFixed(1)}%`;
}

/** Share of `part` in `whole`, one decimal: `43.7%`. */
export function formatShare(part: number, whole: number): string {
  return whole === 0 ? '0.0%' : `${((part / whole) * 100).toFixed(1)}%`;
}

export function formatMilliseconds(milliseconds: number): string {
  return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(1)} s`;
}
