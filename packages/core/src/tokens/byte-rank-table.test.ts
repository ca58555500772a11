import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { ByteRankTable, isValidUtf8, type RawByteRanks } from './byte-rank-table.js';

const require = createRequire(import.meta.url);
const o200kRanks = (require('gpt-tokenizer/bpeRanks/o200k_base') as { default: RawByteRanks }).default;
const o200k = ByteRankTable.fromRawRanks(o200kRanks);
const encoder = new TextEncoder();

function rankOf(bytes: readonly number[]): number | undefined {
  const array = Uint8Array.from(bytes);
  return o200k.rank(
    array,
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
    expect(o200k.wholeTextRank('hello')).toBe(24912);
    expect(o200k.wholeTextRank('\uFFFD')).toBeDefined();
    // A lone surrogate encodes as U+FFFD's bytes, but it is not U+FFFD.
    expect(o200k.wholeTextRank('\uD800')).toBeUndefined();
    expect(o200k.wholeTextRank('日本')).toBe(rankOf([...encoder.encode('日本')]));
  });

  it('tests UTF-8 as gpt-tokenizer does', () => {
    const valid = (bytes: number[]): boolean => isValidUtf8(Uint8Array.from(bytes), 0, bytes.length);
    expect(valid([...encoder.encode('héllo 日本 😀')])).toBe(true);
    expect(valid([0xc0, 0x80])).toBe(false); // overlong
    expect(valid([0xed, 0xa0, 0x80])).toBe(false); // a surrogate
    expect(valid([0xf4, 0x90, 0x80, 0x80])).toBe(false); // above U+10FFFF
    expect(valid([0xe6, 0x97])).toBe(false); // cut short
  });

  it('finds every token of the ranks at its rank, and decodes each to its bytes', () => {
    let checked = 0;
    o200kRanks.forEach((token, rank) => {
      if (token === undefined) return;
      const bytes = typeof token === 'string' ? encoder.encode(token) : Uint8Array.from(token);
      if (!Buffer.from(o200k.tokenBytes(rank)!.bytes).equals(bytes)) expect.fail(`token ${rank} holds other bytes`);
      expect(o200k.tokenBytes(rank)?.text).toBe(typeof token === 'string');
      if (typeof token === 'string' && !token.startsWith('\uFEFF')) {
        if (o200k.wholeTextRank(token) !== rank) expect.fail(`text token ${rank} ${JSON.stringify(token)} found as ${o200k.wholeTextRank(token)}`);
        checked += 1;
      }
    });
    expect(checked).toBeGreaterThan(190_000);
    expect(o200k.tokenBytes(o200k.size)).toBeUndefined();
    expect(o200k.tokenBytes(-1)).toBeUndefined();
  });

  it('reads back from its bytes as the same table, and refuses a damaged buffer', () => {
    const bytes = o200k.bytes();
    const copy = ByteRankTable.fromBytes(bytes);
    expect(Buffer.from(copy.bytes()).equals(bytes)).toBe(true);
    expect(copy.wholeTextRank('hello')).toBe(24912);
    expect(copy.longestToken).toBe(128);
    // An unaligned copy reads too (a file's buffer can start anywhere).
    const unaligned = new Uint8Array(bytes.length + 1);
    unaligned.set(bytes, 1);
    expect(ByteRankTable.fromBytes(unaligned.subarray(1)).wholeTextRank(' world')).toBe(o200k.wholeTextRank(' world'));
    expect(() => ByteRankTable.fromBytes(bytes.subarray(0, bytes.length - 1))).toThrow(/damaged/);
    const wrongMagic = bytes.slice();
    wrongMagic[0] = 0;
    expect(() => ByteRankTable.fromBytes(wrongMagic)).toThrow(/magic/);
    expect(() => ByteRankTable.fromBytes(new Uint8Array(4))).toThrow(/too short/);
  });
});
