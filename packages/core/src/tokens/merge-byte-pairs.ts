import type { ByteRankTable } from './byte-rank-table.js';
import { PairQueue } from './pair-queue.js';

const NO_RANK = 0x7fffffff;
const encoder = new TextEncoder();

/**
 * Byte-pair merging of one pre-token of m bytes in O(m log m) (O(m) for a run of one character):
 * the merges gpt-tokenizer's `bytePairMerge` makes, in the same order, found with a queue instead
 * of a scan of every pair per merge. That scan (and its `splice`) is what made one pre-token of
 * 100,000 repeated characters take seconds, and its caller's `push(...tokens)` what overflowed
 * the stack.
 *
 * The reference merges, while any adjacent pair of parts is a token, the pair of lowest rank, the
 * leftmost on a tie. Here every pair with a rank waits in a `PairQueue` ordered by (rank, start
 * byte); a part keeps its start when it absorbs its right neighbour, so "leftmost" is "smallest
 * start", and the queue yields exactly the pair the scan would find. Working memory: three 32-bit
 * arrays of m entries plus the queue (about 4 bytes per entry, at most m + 2 per merge).
 *
 * Returns the token ids (ranks) of the parts, left to right, or only their number with `countOnly`.
 */
export function mergeBytePairs(text: string, table: ByteRankTable, countOnly: true, lookedUp?: boolean): number;
export function mergeBytePairs(text: string, table: ByteRankTable, countOnly: false, lookedUp?: boolean): number[];
/** `lookedUp`: the caller already found that `text` is no token as a whole (`wholeTextRank`). */
export function mergeBytePairs(text: string, table: ByteRankTable, countOnly: boolean, lookedUp = false): number | number[] {
  const bytes = encoder.encode(text);
  const size = bytes.length;
  if (size === 0) return countOnly ? 0 : [];
  // One byte per character: every byte is below 0x80.
  const ascii = size === text.length;
  // gpt-tokenizer looks a pre-token up whole before merging it.
  const whole = lookedUp ? undefined : table.wholeTextRank(text);
  if (whole !== undefined) return countOnly ? 1 : [whole];
  const pairRank = (start: number, end: number): number =>
    (end - start === 2 ? table.pairRank(bytes[start]!, bytes[start + 1]!) : table.rank(bytes, start, end, ascii)) ?? NO_RANK;

  // Parts are named by their first byte; `next` / `previous` link them (size = past the end, -1 = none).
  const next = new Int32Array(size);
  const previous = new Int32Array(size);
  // rank[part] is the rank of (part, next part), NO_RANK when that pair is not a token or the part was absorbed.
  const rank = new Int32Array(size);
  // Pairs waiting to merge. An entry is not removed when its pair changes: one whose rank no longer
  // matches is skipped when it comes up.
  const queue = new PairQueue();

  for (let part = 0; part < size; part++) {
    next[part] = part + 1;
    previous[part] = part - 1;
    rank[part] = part + 1 < size ? pairRank(part, part + 2) : NO_RANK;
    if (rank[part] !== NO_RANK) queue.add(rank[part]!, part);
  }

  let parts = size;
  for (let part = queue.take(); part >= 0; part = queue.take()) {
    if (rank[part] !== queue.rank) continue;
    // Merge `part` with the part after it; the merged part keeps `part`'s start.
    const absorbed = next[part]!;
    const after = next[absorbed]!;
    rank[absorbed] = NO_RANK;
    next[part] = after;
    if (after < size) previous[after] = part;
    parts -= 1;
    rank[part] = after < size ? pairRank(part, next[after]!) : NO_RANK;
    if (rank[part] !== NO_RANK) queue.add(rank[part]!, part);
    const left = previous[part]!;
    if (left >= 0) {
      const leftRank = pairRank(left, after);
      // An unchanged rank keeps its entry, which is still queued (it would have merged otherwise).
      if (leftRank !== rank[left]) {
        rank[left] = leftRank;
        if (leftRank !== NO_RANK) queue.add(leftRank, left);
      }
    }
  }

  if (countOnly) return parts;
  const tokens: number[] = [];
  for (let part = 0; part < size; part = next[part]!) {
    const token = table.rank(bytes, part, next[part]!, ascii);
    // Unreachable: single bytes are tokens and every merge made a token.
    if (token === undefined) throw new Error(`byte-pair merge left a part that is not a token (bytes ${part}-${next[part]!})`);
    tokens.push(token);
  }
  return tokens;
}
