interface Entry<Value> {
  readonly value: Value;
  readonly bytes: number;
  /** When the entry was last moved to the newest end. */
  tick: number;
}

/**
 * A least-recently-used map bounded by its number of entries and by the bytes its values hold
 * (as estimated by whoever stores them): past either bound, the entries used longest ago go.
 * A value larger than the whole byte budget is not stored. An entry read is moved to the newest
 * end unless it was moved there in the last quarter of the cache's turnover (cheaper, and as good:
 * such an entry is far from being the oldest).
 */
export class BoundedCache<Key, Value> {
  private readonly entries = new Map<Key, Entry<Value>>();
  private heldBytes = 0;
  private tick = 0;

  constructor(
    readonly maxEntries: number,
    readonly maxBytes: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.heldBytes;
  }

  get(key: Key): Value | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (this.tick - entry.tick > this.entries.size / 4) {
      // Map keeps insertion order: moving the entry to the end marks it as the most recently used.
      this.entries.delete(key);
      this.entries.set(key, entry);
      entry.tick = ++this.tick;
    }
    return entry.value;
  }

  set(key: Key, value: Value, bytes: number): void {
    this.delete(key);
    if (bytes > this.maxBytes || this.maxEntries === 0) return;
    this.entries.set(key, { value, bytes, tick: ++this.tick });
    this.heldBytes += bytes;
    for (const [oldest, entry] of this.entries) {
      if (this.entries.size <= this.maxEntries && this.heldBytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.heldBytes -= entry.bytes;
    }
  }

  delete(key: Key): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.heldBytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.heldBytes = 0;
  }
}
