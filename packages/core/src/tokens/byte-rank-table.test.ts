import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ByteRankTable, byteString, isValidUtf8, type RawByteRanks } from './byte-rank-table.js';

const require = createRequire(import.meta.url);
const o200k = new ByteRankTable((require('gpt-tokenizer/bpeRanks/o200k_base') as { default: RawByteRanks }).default);
const encoder = new TextEncoder();

function rankOf(bytes: readonly number[]): number | undefined {
  const array = Uint8Array.from(bytes);
  return o200k.rank(
    array,
    byteString(array),
    0,
    array.length,
    array.every((byte) => byte < 0x80),
  );
}

describe('ByteRankTable', () => {
  it('finds text tokens by their UTF-8 and byte tokens by their bytes', () => {
    expect(rankOf([...encoder.encode('hello')])).toBe(24912);
    expect(rankOf([...encoder.encode('日本')])).toBeDefined();
    // A lone continuation byte is a byte token.
    expect(rankOf([0xbf])).toBeDefined();
    expect(rankOf([...encoder.encode('no such token, certainly not this one')])).toBeUndefined();
    expect(o200k.longestToken).toBe(128);
  });

  it('looks byte-order-marked sequences up as gpt-tokenizer does: one leading mark is dropped', () => {
    const mark = [0xef, 0xbb, 0xbf];
    // o200k lists "\uFEFFusing" as a byte token, but gpt-tokenizer decodes the bytes (dropping the
    // mark) and finds "using"; the mark alone decodes to "", which is no token.
    expect(rankOf([...mark, ...encoder.encode('using')])).toBe(rankOf([...encoder.encode('using')]));
    expect(rankOf(mark)).toBeUndefined();
  });

  it('takes a pre-token whole only when it is well-formed text', () => {
    expect(o200k.wholeTextRank('hello', 'hello')).toBe(24912);
    const replacement = byteString(encoder.encode('\uFFFD'));
    expect(o200k.wholeTextRank('\uFFFD', replacement)).toBeDefined();
    // A lone surrogate encodes as U+FFFD's bytes, but it is not U+FFFD.
    expect(o200k.wholeTextRank('\uD800', replacement)).toBeUndefined();
  });

  it('tests UTF-8 as gpt-tokenizer does', () => {
    const valid = (bytes: number[]): boolean => isValidUtf8(Uint8Array.from(bytes), 0, bytes.length);
    expect(valid([...encoder.encode('héllo 日本 😀')])).toBe(true);
    expect(valid([0xc0, 0x80])).toBe(false); // overlong
    expect(valid([0xed, 0xa0, 0x80])).toBe(false); // a surrogate
    expect(valid([0xf4, 0x90, 0x80, 0x80])).toBe(false); // above U+10FFFF
    expect(valid([0xe6, 0x97])).toBe(false); // cut short
  });
});
