/**
 * Items in the order of a key that is costly to know (highest first, then lowest `index`), read
 * one by one: each item's key is worked out only when the item could be next, that is when its
 * `bound` (at least its key) is the highest left. The order is exactly a sort by key and index;
 * taking the first few of many costs the keys of those few and of the items whose bounds pass
 * them, not every key.
 */
export class BestFirst<T> {
  /** A binary heap of what is left, highest (value, then lowest index) at the top. */
  private readonly heap: { readonly item: T; readonly index: number; value: number; exact: boolean }[];

  constructor(
    items: readonly T[],
    bound: (item: T) => number,
    private readonly key: (item: T) => number,
    /** Each item's tie-breaker: the lower goes first among equal keys (an item's own position by default). */
    indexOf: (item: T, position: number) => number = (_, position) => position,
  ) {
    this.heap = items.map((item, position) => ({ item, index: indexOf(item, position), value: bound(item), exact: false }));
    for (let at = (this.heap.length >> 1) - 1; at >= 0; at--) this.sink(at);
  }

  get size(): number {
    return this.heap.length;
  }

  /** The next item by key, or undefined when none is left. */
  next(): T | undefined {
    for (;;) {
      const top = this.heap[0];
      if (top === undefined) return undefined;
      if (top.exact) {
        const last = this.heap.pop()!;
        if (this.heap.length > 0) {
          this.heap[0] = last;
          this.sink(0);
        }
        return top.item;
      }
      // Every other item is at most its bound, which is at most this one's: with its key known, it may still go first.
      top.value = this.key(top.item);
      top.exact = true;
      this.sink(0);
    }
  }

  private above(a: number, b: number): boolean {
    const first = this.heap[a]!;
    const second = this.heap[b]!;
    return first.value > second.value || (first.value === second.value && first.index < second.index);
  }

  private sink(at: number): void {
    const { length } = this.heap;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let best = at;
      if (left < length && this.above(left, best)) best = left;
      if (right < length && this.above(right, best)) best = right;
      if (best === at) return;
      [this.heap[at], this.heap[best]] = [this.heap[best]!, this.heap[at]!];
      at = best;
    }
  }
}
