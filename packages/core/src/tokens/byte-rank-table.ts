/** A BPE rank table as gpt-tokenizer ships it: the token at each rank, as text or (when not valid UTF-8) as bytes. */
export type RawByteRanks = readonly (string | readonly number[] | undefined)[];

const BYTE_ORDER_MARK = [0xef, 0xbb, 0xbf] as const;
const UNKNOWN = -2;
const NONE = -1;

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

/** The byte string of `text`'s UTF-8 (`unescape(encodeURIComponent())` is the fast native way; it throws on a lone surrogate). */
function utf8ByteString(text: string): string {
  try {
    return unescape(encodeURIComponent(text));
  } catch {
    return byteString(encoder.encode(text));
  }
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 0x7f) return false;
  return true;
}

/**
 * The rank of any byte sequence, looked up exactly as gpt-tokenizer's `BytePairEncodingCore`
 * looks it up, so a merge computed with this table is the merge gpt-tokenizer computes:
 * - a valid UTF-8 sequence is decoded (its `TextDecoder` drops one leading byte-order mark) and
 *   looked up among the text tokens;
 * - any other sequence is looked up among the byte tokens.
 * (So the nine o200k tokens that start with a byte-order mark are never produced; neither are they
 * by gpt-tokenizer.) Keys are byte strings (`byteString`), so a lookup costs one short slice.
 */
export class ByteRankTable {
  /** The longest token, in bytes: a longer sequence has no rank. */
  readonly longestToken: number;
  private readonly textRanks = new Map<string, number>();
  private readonly byteRanks = new Map<string, number>();
  private readonly pairRanks = new Int32Array(0x10000).fill(UNKNOWN);

  constructor(ranks: RawByteRanks) {
    let longest = 0;
    // forEach skips holes, as gpt-tokenizer's constructor does; a later duplicate wins, as there.
    ranks.forEach((token, rank) => {
      if (token === undefined) return;
      if (typeof token === 'string') {
        // Most tokens are ASCII, and then the text is its own byte string.
        const key = isAscii(token) ? token : utf8ByteString(token);
        this.textRanks.set(key, rank);
        longest = Math.max(longest, key.length);
        return;
      }
      const bytes = Uint8Array.from(token);
      longest = Math.max(longest, bytes.length);
      // A byte token that is valid UTF-8 is never looked up as bytes by gpt-tokenizer.
      if (!isValidUtf8(bytes, 0, bytes.length)) this.byteRanks.set(byteString(bytes), rank);
    });
    this.longestToken = longest;
  }

  /**
   * The rank of `text` as a whole, as gpt-tokenizer checks a pre-token before merging it (a text
   * with a lone surrogate is no token there; its UTF-8 would be U+FFFD's). `key` is the byte string
   * of its UTF-8.
   */
  wholeTextRank(text: string, key: string): number | undefined {
    if (key.length > this.longestToken) return undefined;
    for (let index = 0; index < text.length; index++) {
      const unit = text.charCodeAt(index);
      if (unit < 0xd800 || unit > 0xdfff) continue;
      const following = text.charCodeAt(index + 1);
      if (unit > 0xdbff || !(following >= 0xdc00 && following <= 0xdfff)) return undefined;
      index += 1;
    }
    return this.textRanks.get(key);
  }

  /** The rank of the two bytes `first`, `second` (cached: every merge starts with these). */
  pairRank(first: number, second: number): number | undefined {
    const index = (first << 8) | second;
    let rank = this.pairRanks[index]!;
    if (rank === UNKNOWN) {
      const bytes = Uint8Array.of(first, second);
      rank = this.rank(bytes, byteString(bytes), 0, 2, first < 0x80 && second < 0x80) ?? NONE;
      this.pairRanks[index] = rank;
    }
    return rank === NONE ? undefined : rank;
  }

  /**
   * The rank of `bytes[start, end)`, or undefined when it is not a token. `key` is
   * `byteString(bytes)`; `ascii` says every byte is below 0x80 (then the test for UTF-8 is skipped).
   */
  rank(bytes: Uint8Array, key: string, start: number, end: number, ascii: boolean): number | undefined {
    if (end - start > this.longestToken) return undefined;
    if (ascii) return this.textRanks.get(key.slice(start, end));
    if (!isValidUtf8(bytes, start, end)) return this.byteRanks.get(key.slice(start, end));
    const textStart =
      end - start >= 3 && bytes[start] === BYTE_ORDER_MARK[0] && bytes[start + 1] === BYTE_ORDER_MARK[1] && bytes[start + 2] === BYTE_ORDER_MARK[2]
        ? start + 3
        : start;
    return this.textRanks.get(key.slice(textStart, end));
  }
}
