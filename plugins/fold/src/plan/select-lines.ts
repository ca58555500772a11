import type { LineSource } from '../lines/source-lines.js';
import type { Candidate } from './line-values.js';

/** A candidate with what it costs: its tokens and a line break. */
export interface PricedCandidate extends Candidate {
  readonly tokens: number;
}

/**
 * The candidates to keep within `budget` tokens: the most worth per token first; the first line
 * kept of a source also pays for the source's header (`headerTokens`). Deterministic: ties go to
 * the newer line.
 */
export function selectLines(candidates: readonly PricedCandidate[], budget: number, headerTokens: (source: LineSource) => number): Set<PricedCandidate> {
  const order = [...candidates]
    .filter((candidate) => candidate.value > 0)
    .sort((a, b) => b.value / b.tokens - a.value / a.tokens || b.source.message - a.source.message || b.line.index - a.line.index);
  const chosen = new Set<PricedCandidate>();
  const opened = new Set<LineSource>();
  let left = budget;
  for (const candidate of order) {
    if (left <= 0) break;
    const cost = candidate.tokens + (opened.has(candidate.source) ? 0 : headerTokens(candidate.source));
    if (cost > left) continue;
    chosen.add(candidate);
    opened.add(candidate.source);
    left -= cost;
  }
  return chosen;
}
