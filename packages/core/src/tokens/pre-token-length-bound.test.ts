import { createRequire } from 'node:module';
import fc from 'fast-check';
import type * as SplitPatterns from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { preTokenLengthBound } from './pre-token-length-bound.js';

const require = createRequire(import.meta.url);
const patterns = require('gpt-tokenizer/encodingParams/constants') as typeof SplitPatterns;
const regexes = [patterns.O200K_TOKEN_SPLIT_REGEX, patterns.CL100K_TOKEN_SPLIT_REGEX];

function longestPreToken(text: string, regex: RegExp): number {
  let longest = 0;
  for (const [preToken] of text.matchAll(regex)) longest = Math.max(longest, preToken.length);
  return longest;
}

const pieces = [
  'a',
  'Z',
  'é',
  '日',
  '\u0301',
  "'",
  "'re",
  "'LL",
  ' ',
  '\t',
  '\n',
  '\r',
  '\u00a0',
  '!',
  '/',
  '-',
  '1',
  '٣',
  '𝟙',
  '😀',
  '𐐀',
  '\uD800',
  'the',
  ' Fox',
];
const runs = fc
  .array(
    fc.oneof(
      fc.constantFrom(...pieces),
      fc.tuple(fc.constantFrom(...pieces), fc.integer({ min: 1, max: 80 })).map(([piece, times]) => piece.repeat(times)),
    ),
    {
      maxLength: 12,
    },
  )
  .map((parts) => parts.join(''));

describe('preTokenLengthBound', () => {
  it('is never below the longest pre-token of either split regex', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 }), runs), (text) => {
        const bound = preTokenLengthBound(text);
        for (const regex of regexes) expect(bound).toBeGreaterThanOrEqual(longestPreToken(text, regex));
      }),
      { numRuns: 500 },
    );
  });

  it('stays near the longest run for ordinary text, and stops early once over the limit', () => {
    expect(preTokenLengthBound('def add(a, b):\n    return a + b\n')).toBeLessThan(20);
    expect(preTokenLengthBound('x'.repeat(1_000))).toBe(1_005);
    expect(preTokenLengthBound(`${'='.repeat(300)} done`)).toBe(301);
    expect(preTokenLengthBound('a'.repeat(10_000), 256)).toBe(257);
    // Digits split every three; letters around them never join a run across them.
    expect(preTokenLengthBound('ab1'.repeat(10_000))).toBe(7);
  });
});
