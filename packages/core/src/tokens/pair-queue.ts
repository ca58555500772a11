/**
 * The positions of one rank. A queue while positions arrive in increasing order, which is how a
 * merge pass leaves them; a binary heap from the first that arrives out of order until it empties.
 */
class RankBucket {
  items = new Int32Array(16);
  head = 0;
  tail = 0;
  ordered = true;
  /** Listed in the queue's heap of ranks. */
  listed = false;

  get empty(): boolean {
    return this.head === this.tail;
  }

  add(part: number): void {
    if (this.ordered && this.tail > this.head && part < this.items[this.tail - 1]!) {
      // A sorted array is already a heap.
      this.items.copyWithin(0, this.head, this.tail);
      this.tail -= this.head;
      this.head = 0;
      this.ordered = false;
    }
    if (this.tail === this.items.length) this.makeRoom();
    if (this.ordered) {
      this.items[this.tail++] = part;
      return;
    }
    let at = this.tail++;
    while (at > 0) {
      const parentAt = (at - 1) >> 1;
      const parent = this.items[parentAt]!;
      if (parent <= part) break;
      this.items[at] = parent;
      at = parentAt;
    }
    this.items[at] = part;
  }

  take(): number {
    if (this.ordered) {
      const part = this.items[this.head++]!;
      if (this.head === this.tail) this.head = this.tail = 0;
      return part;
    }
    const items = this.items;
    const top = items[0]!;
    const last = items[--this.tail]!;
    if (this.tail === 0) {
      this.ordered = true;
      return top;
    }
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.tail) break;
      if (child + 1 < this.tail && items[child + 1]! < items[child]!) child += 1;
      if (items[child]! >= last) break;
      items[at] = items[child]!;
      at = child;
    }
    items[at] = last;
    return top;
  }

  private makeRoom(): void {
    if (this.head > this.items.length >> 1) {
      this.items.copyWithin(0, this.head, this.tail);
      this.tail -= this.head;
      this.head = 0;
      return;
    }
    const grown = new Int32Array(this.items.length * 2);
    grown.set(this.items);
    this.items = grown;
  }
}

/**
 * Pending byte pairs, taken lowest rank first and, within a rank, leftmost (lowest start) first:
 * the order of gpt-tokenizer's merge scan. One bucket per rank and a small heap of the ranks that
 * have entries, so taking a pair costs O(1) while its bucket is in order (a long run of one
 * character puts every pair of a pass in one bucket, in order), O(log n) otherwise. Entries are
 * never removed early: the caller skips one whose pair has changed since (lazy deletion).
 */
export class PairQueue {
  /** The rank of the pair `take` returned last. */
  rank = -1;
  private readonly buckets = new Map<number, RankBucket>();
  private ranks = new Int32Array(64);
  private rankCount = 0;

  add(rank: number, part: number): void {
    let bucket = this.buckets.get(rank);
    if (bucket === undefined) {
      bucket = new RankBucket();
      this.buckets.set(rank, bucket);
    }
    bucket.add(part);
    if (!bucket.listed) {
      bucket.listed = true;
      this.listRank(rank);
    }
  }

  /** The start of the lowest pending pair (its rank in `rank`), removed; -1 when none is left. */
  take(): number {
    while (this.rankCount > 0) {
      const rank = this.ranks[0]!;
      const bucket = this.buckets.get(rank)!;
      if (bucket.empty) {
        bucket.listed = false;
        this.unlistLowestRank();
        continue;
      }
      this.rank = rank;
      return bucket.take();
    }
    return -1;
  }

  private listRank(rank: number): void {
    if (this.rankCount === this.ranks.length) {
      const grown = new Int32Array(this.ranks.length * 2);
      grown.set(this.ranks);
      this.ranks = grown;
    }
    const ranks = this.ranks;
    let at = this.rankCount++;
    while (at > 0) {
      const parentAt = (at - 1) >> 1;
      const parent = ranks[parentAt]!;
      if (parent <= rank) break;
      ranks[at] = parent;
      at = parentAt;
    }
    ranks[at] = rank;
  }

  private unlistLowestRank(): void {
    const ranks = this.ranks;
    const last = ranks[--this.rankCount]!;
    if (this.rankCount === 0) return;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.rankCount) break;
      if (child + 1 < this.rankCount && ranks[child + 1]! < ranks[child]!) child += 1;
      if (ranks[child]! >= last) break;
      ranks[at] = ranks[child]!;
      at = child;
    }
    ranks[at] = last;
  }
}
