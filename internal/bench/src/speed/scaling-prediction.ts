/** A contender's median time at one conversation size. */
export interface SizePoint {
  readonly tokens: number;
  readonly ms: number;
}

/** Growth faster than this exponent is taken as quadratic: fixed costs hide a square at small sizes. */
const SUPERLINEAR = 1.25;

/**
 * The time a contender will take at `tokens`, from its last two sizes: linear growth carried on
 * from the last, or quadratic when they show more than linear (the plain LangChain counter grew
 * 1.6x faster than linear from 10K to 100K tokens and 2.2x from 100K to 1M). Undefined with no size yet.
 */
export function predictMilliseconds(points: readonly SizePoint[], tokens: number): number | undefined {
  const last = points[points.length - 1];
  if (!last || !(last.ms > 0) || !(last.tokens > 0)) return undefined;
  let exponent = 1;
  const previous = points[points.length - 2];
  if (previous && previous.ms > 0 && last.tokens > previous.tokens) {
    const measured = Math.log(last.ms / previous.ms) / Math.log(last.tokens / previous.tokens);
    if (Number.isFinite(measured) && measured > SUPERLINEAR) exponent = 2;
  }
  return last.ms * (tokens / last.tokens) ** exponent;
}
