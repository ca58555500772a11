import { median } from '../measure.js';

/** The `share` quantile by nearest rank (0.95: the value 95% of the samples are at or under); NaN when empty. */
export function percentile(values: readonly number[], share: number): number {
  if (!(share > 0 && share <= 1)) throw new RangeError(`share must be in (0, 1], got ${share}`);
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.ceil(share * sorted.length) - 1]!;
}

/** One request sent both ways: straight to the model server and through the proxy, the same messages. */
export interface RequestPair {
  readonly directMs: number;
  readonly proxiedMs: number;
}

/** Medians and 95th percentiles of a set of pairs; `added` is over each pair's own difference. */
export interface LatencyStatistics {
  readonly requests: number;
  readonly directMedianMs: number;
  readonly directP95Ms: number;
  readonly proxiedMedianMs: number;
  readonly proxiedP95Ms: number;
  /** Median of (proxied - direct) per pair: what the proxy added to a request, drift paired out. */
  readonly addedMedianMs: number;
  readonly addedP95Ms: number;
}

export function latencyStatistics(pairs: readonly RequestPair[]): LatencyStatistics {
  const direct = pairs.map((pair) => pair.directMs);
  const proxied = pairs.map((pair) => pair.proxiedMs);
  const added = pairs.map((pair) => pair.proxiedMs - pair.directMs);
  return {
    requests: pairs.length,
    directMedianMs: median(direct),
    directP95Ms: percentile(direct, 0.95),
    proxiedMedianMs: median(proxied),
    proxiedP95Ms: percentile(proxied, 0.95),
    addedMedianMs: median(added),
    addedP95Ms: percentile(added, 0.95),
  };
}
