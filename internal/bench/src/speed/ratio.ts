import { median } from '../measure.js';

/** numerator / denominator; undefined when either is missing, not finite, or the denominator is not positive. */
export function ratio(numerator: number | undefined, denominator: number | undefined): number | undefined {
  if (numerator === undefined || denominator === undefined) return undefined;
  if (!Number.isFinite(numerator) || !Number.isFinite(denominator) || denominator <= 0) return undefined;
  return numerator / denominator;
}

/**
 * The median of per-case ratios (each case timed against its own peer in the same rounds), so
 * that a large transcript does not weigh more than a small one and each ratio compares runs made
 * side by side. Cases without both figures are left out; undefined when none is left.
 */
export function pairedRatio(pairs: readonly { readonly numerator: number | undefined; readonly denominator: number | undefined }[]): number | undefined {
  const ratios = pairs.flatMap((pair) => {
    const value = ratio(pair.numerator, pair.denominator);
    return value === undefined ? [] : [value];
  });
  return ratios.length === 0 ? undefined : median(ratios);
}

/** A target of the "Done when" list: the measured ratio must be at most (or below) `value`. */
export interface RatioTarget {
  readonly comparison: 'at-most' | 'below';
  readonly value: number;
}

/** True when `measured` meets `target`; undefined when nothing was measured. */
export function meetsTarget(measured: number | undefined, target: RatioTarget): boolean | undefined {
  if (measured === undefined || !Number.isFinite(measured)) return undefined;
  return target.comparison === 'at-most' ? measured <= target.value : measured < target.value;
}

export function describeTarget(target: RatioTarget): string {
  return `${target.comparison === 'at-most' ? '≤' : '<'} ${target.value}x`;
}
