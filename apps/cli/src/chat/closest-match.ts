/** Edit distance (insertions, deletions, substitutions) between two short words. */
export function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let row = 1; row <= left.length; row += 1) {
    const current = [row];
    for (let column = 1; column <= right.length; column += 1) {
      const substitution = previous[column - 1]! + (left[row - 1] === right[column - 1] ? 0 : 1);
      current.push(Math.min(previous[column]! + 1, current[column - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length]!;
}

/**
 * The candidate closest to `word`, or undefined when none is plausibly meant: a prefix match wins,
 * otherwise the smallest edit distance within about a third of the word's length (at least 2).
 */
export function closestMatch(word: string, candidates: readonly string[]): string | undefined {
  const needle = word.toLowerCase();
  const prefixed = candidates.filter((candidate) => needle.length > 0 && candidate.startsWith(needle));
  if (prefixed.length === 1) return prefixed[0];
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.ceil(needle.length / 3)) + 1;
  for (const candidate of candidates) {
    const distance = editDistance(needle, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
