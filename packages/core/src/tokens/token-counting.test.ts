import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenizer } from './bpe-tokenizer.js';
import { cannotExceedTokens } from './token-counting.js';

const tokenizers = [createTokenizer('o200k_base'), createTokenizer('cl100k_base')];

describe('cannotExceedTokens', () => {
  it('decides by UTF-8 bytes, not characters: one character can be three tokens', () => {
    const o200k = tokenizers[0]!;
    expect(o200k.countTokens('ꙮꙮꙮꙮ')).toBeGreaterThan(4);
    expect(cannotExceedTokens('ꙮꙮꙮꙮ', 4)).toBe(false);
    expect(cannotExceedTokens('ꙮꙮꙮꙮ', 12)).toBe(true);
    expect(cannotExceedTokens('abcd', 4)).toBe(true);
    expect(cannotExceedTokens('abcde', 4)).toBe(false);
  });

  it('is true only of texts that have at most that many tokens', () => {
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 60 }), fc.string({ unit: 'grapheme', maxLength: 40 }), fc.string({ maxLength: 80 }));
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 200 }), (value, limit) => {
        if (!cannotExceedTokens(value, limit)) return;
        for (const tokenizer of tokenizers) expect(tokenizer.countTokens(value)).toBeLessThanOrEqual(limit);
      }),
      { numRuns: 3000 },
    );
  });
});
