/** A BPE rank table as gpt-tokenizer ships it: the token at each rank, as text or (when not valid UTF-8) as bytes. */
export type RawByteRanks = readonly (string | readonly number[] | undefined)[];

const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf] as const;
const UNKNOWN = -2;
const NONE = -1;

/** What a rank is, in `kinds`. */
const HOLE = 0;
/** A text token: found by its UTF-8. */
const TEXT = 1 as const;
/** A byte token that is not valid UTF-8: found by its bytes. */
const BYTES = 2 as const;
/** A byte token that is valid UTF-8: gpt-tokenizer never looks it up, but it decodes as bytes. */
const UNREACHABLE_BYTES = 3;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SEEDS: Readonly<Record<typeof TEXT | typeof BYTES, number>> = { [TEXT]: FNV_OFFSET, [BYTES]: FNV_OFFSET ^ 0x5bd1e995 };

/** The serialized form's header: magic, version, rank count, slot count, blob bytes, longest token. */
const MAGIC = 0x424d4c4f; // "OLMB", little-endian
const VERSION = 1;
const HEADER_WORDS = 8;

/** `bytes` as a string of one character per byte (0-255): a compact, hashable key. */
export function byteString(bytes: Uint8Array, start = 0, end = bytes.length): string {
  const chunk = 8192;
  if (end - start <= chunk) return String.fromCharCode(...bytes.subarray(start, end));
  const pieces: string[] = [];
  for (let offset = start; offset < end; offset += chunk) pieces.push(String.fromCharCode(...bytes.subarray(offset, Math.min(end, offset + chunk))));
  return pieces.join('');
}

/**
 * gpt-tokenizer's own test (`isValidUTF8` in its utfUtil): no overlong forms, no surrogates,
 * nothing above U+10FFFF. Ported byte for byte, because which table a byte sequence is looked up
 * in depends on it.
 */
export function isValidUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  let index = start;
  while (index < end) {
    const first = bytes[index]!;
    let length: number;
    let codePoint: number;
    if (first <= 0x7f) {
      index += 1;
      continue;
    } else if ((first & 0xe0) === 0xc0) {
      if (first <= 0xc1) return false;
      length = 2;
      codePoint = first & 0x1f;
    } else if ((first & 0xf0) === 0xe0) {
      length = 3;
      codePoint = first & 0x0f;
    } else if ((first & 0xf8) === 0xf0) {
      if (first > 0xf4) return false;
      length = 4;
      codePoint = first & 0x07;
    } else {
      return false;
    }
    if (index + length > end) return false;
    for (let offset = 1; offset < length; offset++) {
      const next = bytes[index + offset]!;
      if ((next & 0xc0) !== 0x80) return false;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if ((length === 2 && codePoint < 0x80) || (length === 3 && codePoint < 0x800) || (length === 4 && codePoint < 0x10000)) return false;
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) return false;
    if (codePoint > 0x10ffff) return false;
    index += length;
  }
  return true;
}

const encoder = new TextEncoder();

function hashBytes(seed: number, bytes: Uint8Array, start: number, end: number): number {
  let hash = seed;
  for (let index = start; index < end; index++) hash = Math.imul(hash ^ bytes[index]!, FNV_PRIME);
  return hash;
}

/** The sections of the table, views over one buffer (4-byte aligned). */
interface Layout {
  readonly buffer: ArrayBuffer;
  readonly longestToken: number;
  /** Byte offsets into `blob` of each rank's bytes; rank r is `blob[offsets[r], offsets[r + 1])`. */
  readonly offsets: Uint32Array;
  /** Open addressing, linear probing: a rank, or -1 for an empty slot. */
  readonly slots: Int32Array;
  readonly kinds: Uint8Array;
  readonly blob: Uint8Array;
}

const align4 = (bytes: number): number => (bytes + 3) & ~3;

function allocate(rankCount: number, slotCount: number, blobLength: number, longestToken: number, from?: Uint8Array): Layout {
  const offsetsStart = HEADER_WORDS * 4;
  const slotsStart = offsetsStart + (rankCount + 1) * 4;
  const kindsStart = slotsStart + slotCount * 4;
  const blobStart = kindsStart + align4(rankCount);
  const size = blobStart + blobLength;
  let buffer: ArrayBuffer;
  if (from === undefined) buffer = new ArrayBuffer(size);
  else if (from.byteOffset % 4 === 0 && from.buffer instanceof ArrayBuffer) buffer = from.buffer;
  else buffer = from.slice().buffer;
  const base = from !== undefined && buffer === from.buffer ? from.byteOffset : 0;
  if (from === undefined) new Uint32Array(buffer, 0, HEADER_WORDS).set([MAGIC, VERSION, rankCount, slotCount, blobLength, longestToken]);
  return {
    buffer,
    longestToken,
    offsets: new Uint32Array(buffer, base + offsetsStart, rankCount + 1),
    slots: new Int32Array(buffer, base + slotsStart, slotCount),
    kinds: new Uint8Array(buffer, base + kindsStart, rankCount),
    blob: new Uint8Array(buffer, base + blobStart, blobLength),
  };
}

/**
 * The rank of any byte sequence, looked up exactly as gpt-tokenizer's `BytePairEncodingCore`
 * looks it up, so a merge computed with this table is the merge gpt-tokenizer computes:
 * - a valid UTF-8 sequence is decoded (its `TextDecoder` drops one leading byte-order mark) and
 *   looked up among the text tokens;
 * - any other sequence is looked up among the byte tokens.
 * (So the nine o200k tokens that start with a byte-order mark are never produced; neither are they
 * by gpt-tokenizer.)
 *
 * The table is one flat buffer: every token's bytes, and a hash table (FNV-1a, linear probing)
 * over them. So it is built once from gpt-tokenizer's ranks (`fromRawRanks`), written to a file
 * (`bytes`) and read back (`fromBytes`) with no work: loading is reading the file.
 */
export class ByteRankTable {
  /** The longest token, in bytes: a longer sequence has no rank. */
  readonly longestToken: number;
  private readonly layout: Layout;
  private readonly mask: number;
  private readonly pairRanks = new Int32Array(0x10000).fill(UNKNOWN);
  private scratch = new Uint8Array(256);

  private constructor(layout: Layout) {
    this.layout = layout;
    this.longestToken = layout.longestToken;
    this.mask = layout.slots.length - 1;
  }

  /** Builds the table from gpt-tokenizer's rank array (holes skipped and a later duplicate winning, as there). */
  static fromRawRanks(ranks: RawByteRanks): ByteRankTable {
    const keys: (Uint8Array | undefined)[] = new Array(ranks.length);
    const kinds = new Uint8Array(ranks.length);
    let blobLength = 0;
    let longest = 0;
    let entries = 0;
    ranks.forEach((token, rank) => {
      if (token === undefined) return;
      const bytes = typeof token === 'string' ? encoder.encode(token) : Uint8Array.from(token);
      keys[rank] = bytes;
      kinds[rank] = typeof token === 'string' ? TEXT : isValidUtf8(bytes, 0, bytes.length) ? UNREACHABLE_BYTES : BYTES;
      blobLength += bytes.length;
      longest = Math.max(longest, bytes.length);
      entries += 1;
    });
    let slotCount = 1024;
    while (slotCount < entries * 2.5) slotCount *= 2;
    const layout = allocate(ranks.length, slotCount, blobLength, longest);
    layout.slots.fill(NONE);
    layout.kinds.set(kinds);
    let offset = 0;
    for (let rank = 0; rank < ranks.length; rank++) {
      layout.offsets[rank] = offset;
      const bytes = keys[rank];
      if (bytes === undefined) continue;
      layout.blob.set(bytes, offset);
      offset += bytes.length;
    }
    layout.offsets[ranks.length] = offset;
    const table = new ByteRankTable(layout);
    for (let rank = 0; rank < ranks.length; rank++) {
      const kind = kinds[rank]!;
      if (kind === TEXT || kind === BYTES) table.insert(kind, rank);
    }
    return table;
  }

  /**
   * Reads a table `bytes` gave. Throws when the buffer is not one (wrong magic, version or size),
   * so a damaged file is never used.
   */
  static fromBytes(data: Uint8Array): ByteRankTable {
    if (data.byteLength < HEADER_WORDS * 4) throw new Error('not an ollm rank table: too short');
    const header = new DataView(data.buffer, data.byteOffset, HEADER_WORDS * 4);
    const word = (index: number): number => header.getUint32(index * 4, true);
    if (word(0) !== MAGIC) throw new Error('not an ollm rank table: wrong magic number');
    if (word(1) !== VERSION) throw new Error(`ollm rank table version ${word(1)}, expected ${VERSION}`);
    const [rankCount, slotCount, blobLength, longest] = [word(2), word(3), word(4), word(5)];
    const expected = HEADER_WORDS * 4 + (rankCount + 1) * 4 + slotCount * 4 + align4(rankCount) + blobLength;
    if (data.byteLength !== expected || (slotCount & (slotCount - 1)) !== 0 || slotCount === 0) {
      throw new Error(`ollm rank table damaged: ${data.byteLength} bytes, expected ${expected}`);
    }
    const layout = allocate(rankCount, slotCount, blobLength, longest, data);
    if (layout.offsets[rankCount] !== blobLength) throw new Error('ollm rank table damaged: offsets do not end at the blob');
    return new ByteRankTable(layout);
  }

  /** The table as one buffer, for `fromBytes`. */
  bytes(): Uint8Array {
    const { offsets, blob } = this.layout;
    return new Uint8Array(this.layout.buffer, offsets.byteOffset - HEADER_WORDS * 4, blob.byteOffset + blob.length - offsets.byteOffset + HEADER_WORDS * 4);
  }

  /** How many ranks (holes included) the table spans. */
  get size(): number {
    return this.layout.kinds.length;
  }

  private insert(kind: typeof TEXT | typeof BYTES, rank: number): void {
    const { offsets, slots, kinds, blob } = this.layout;
    const start = offsets[rank]!;
    const end = offsets[rank + 1]!;
    for (let slot = hashBytes(SEEDS[kind], blob, start, end) & this.mask; ; slot = (slot + 1) & this.mask) {
      const held = slots[slot]!;
      if (held === NONE || (kinds[held] === kind && this.equalsRank(held, blob, start, end))) {
        slots[slot] = rank;
        return;
      }
    }
  }

  private equalsRank(rank: number, bytes: Uint8Array, start: number, end: number): boolean {
    const { offsets, blob } = this.layout;
    const from = offsets[rank]!;
    if (offsets[rank + 1]! - from !== end - start) return false;
    for (let index = 0; index < end - start; index++) if (blob[from + index] !== bytes[start + index]) return false;
    return true;
  }

  /** The rank of `kind` whose bytes are `bytes[start, end)`, or undefined. */
  private find(kind: typeof TEXT | typeof BYTES, bytes: Uint8Array, start: number, end: number): number | undefined {
    const { slots, kinds } = this.layout;
    for (let slot = hashBytes(SEEDS[kind], bytes, start, end) & this.mask; ; slot = (slot + 1) & this.mask) {
      const rank = slots[slot]!;
      if (rank === NONE) return undefined;
      if (kinds[rank] === kind && this.equalsRank(rank, bytes, start, end)) return rank;
    }
  }

  /** The text token whose bytes are the ASCII `text`'s characters (the caller checked they are ASCII). */
  private findAscii(text: string): number | undefined {
    const { slots, kinds, offsets, blob } = this.layout;
    const length = text.length;
    let hash = SEEDS[TEXT];
    for (let index = 0; index < length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), FNV_PRIME);
    for (let slot = hash & this.mask; ; slot = (slot + 1) & this.mask) {
      const rank = slots[slot]!;
      if (rank === NONE) return undefined;
      if (kinds[rank] !== TEXT) continue;
      const from = offsets[rank]!;
      if (offsets[rank + 1]! - from !== length) continue;
      let index = 0;
      while (index < length && blob[from + index] === text.charCodeAt(index)) index++;
      if (index === length) return rank;
    }
  }

  /**
   * The rank of `text` as a whole, as gpt-tokenizer checks a pre-token before merging it (a text
   * with a lone surrogate is no token there; its UTF-8 would be U+FFFD's).
   */
  wholeTextRank(text: string): number | undefined {
    const length = text.length;
    let ascii = true;
    for (let index = 0; index < length; index++) {
      const unit = text.charCodeAt(index);
      if (unit < 0x80) continue;
      ascii = false;
      if (unit < 0xd800 || unit > 0xdfff) continue;
      const following = text.charCodeAt(index + 1);
      if (unit > 0xdbff || !(following >= 0xdc00 && following <= 0xdfff)) return undefined;
      index += 1;
    }
    if (ascii) return length > this.longestToken ? undefined : this.findAscii(text);
    if (length > this.longestToken) return undefined; // at least one byte per UTF-16 unit
    if (this.scratch.length < length * 3) this.scratch = new Uint8Array(length * 3);
    const { written } = encoder.encodeInto(text, this.scratch);
    return written > this.longestToken ? undefined : this.find(TEXT, this.scratch, 0, written);
  }

  /** The rank of the two bytes `first`, `second` (cached: every merge starts with these). */
  pairRank(first: number, second: number): number | undefined {
    const index = (first << 8) | second;
    let rank = this.pairRanks[index]!;
    if (rank === UNKNOWN) {
      rank = this.rank(Uint8Array.of(first, second), 0, 2, first < 0x80 && second < 0x80) ?? NONE;
      this.pairRanks[index] = rank;
    }
    return rank === NONE ? undefined : rank;
  }

  /** The rank of `bytes[start, end)`, or undefined when it is not a token; `ascii` says every byte is below 0x80 (then the test for UTF-8 is skipped). */
  rank(bytes: Uint8Array, start: number, end: number, ascii: boolean): number | undefined {
    if (end - start > this.longestToken) return undefined;
    if (ascii) return this.find(TEXT, bytes, start, end);
    if (!isValidUtf8(bytes, start, end)) return this.find(BYTES, bytes, start, end);
    const textStart =
      end - start >= 3 && bytes[start] === BYTE_ORDER_MARK[0] && bytes[start + 1] === BYTE_ORDER_MARK[1] && bytes[start + 2] === BYTE_ORDER_MARK[2]
        ? start + 3
        : start;
    return this.find(TEXT, bytes, textStart, end);
  }

  /**
   * The bytes of `rank` and whether it is a text token (decoded as its own text) or a byte token;
   * undefined for a rank the table does not hold (a hole, a special token, out of range).
   */
  tokenBytes(rank: number): { readonly bytes: Uint8Array; readonly text: boolean } | undefined {
    const { kinds, offsets, blob } = this.layout;
    if (!Number.isInteger(rank) || rank < 0 || rank >= kinds.length || kinds[rank] === HOLE) return undefined;
    return { bytes: blob.subarray(offsets[rank]!, offsets[rank + 1]!), text: kinds[rank] === TEXT };
  }
}
