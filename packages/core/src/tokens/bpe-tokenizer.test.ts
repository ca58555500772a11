import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import type * as Encoding from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { ByteRankTable } from './byte-rank-table.js';
import { buildRankTable, createBpeTokenizer, createTokenizer, encodingForModel, rankTableFileName } from './bpe-tokenizer.js';

// Reference ids are what OpenAI's tiktoken gives for the same strings.
describe('createTokenizer', () => {
  it('counts and encodes exactly in o200k_base', () => {
    const tokenizer = createTokenizer('o200k_base');
    expect(tokenizer.encode('hello world')).toEqual([24912, 2375]);
    expect(tokenizer.encode('Hello, world!')).toEqual([13225, 11, 2375, 0]);
    expect(tokenizer.countTokens('The quick brown fox jumps over the lazy dog.')).toBe(10);
    expect(tokenizer.countTokens('日本語のテキスト')).toBe(6);
  });

  it('counts and encodes exactly in cl100k_base', () => {
    const tokenizer = createTokenizer('cl100k_base');
    expect(tokenizer.encode('hello world')).toEqual([15339, 1917]);
    expect(tokenizer.encode('Hello, world!')).toEqual([9906, 11, 1917, 0]);
    expect(tokenizer.countTokens('日本語のテキスト')).toBe(8);
  });

  it('decodes what it encodes', () => {
    const tokenizer = createTokenizer('o200k_base');
    const source = 'def add(a, b):\n    return a + b\n';
    expect(tokenizer.decode(tokenizer.encode(source))).toBe(source);
    expect(tokenizer.countTokens(source)).toBe(tokenizer.encode(source).length);
  });

  it('treats special-token strings in transcripts as plain text instead of throwing', () => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const tokenizer = createTokenizer(encoding);
      expect(tokenizer.countTokens('log: <|endoftext|> end')).toBeGreaterThan(3);
      expect(tokenizer.encode('<|endoftext|>')).toHaveLength(7);
    }
  });

  it('counts the empty string as zero and shares instances per encoding', () => {
    expect(createTokenizer('o200k_base').countTokens('')).toBe(0);
    expect(createTokenizer('o200k_base')).toBe(createTokenizer());
    expect(createTokenizer('cl100k_base')).not.toBe(createTokenizer('o200k_base'));
  });
});

describe('encodingForModel', () => {
  it('maps OpenAI model families and defaults to o200k_base', () => {
    expect(encodingForModel('gpt-4o-mini')).toBe('o200k_base');
    expect(encodingForModel('o3-mini')).toBe('o200k_base');
    expect(encodingForModel('gpt-4-turbo')).toBe('cl100k_base');
    expect(encodingForModel('gpt-3.5-turbo')).toBe('cl100k_base');
    expect(encodingForModel('qwen2.5-coder:7b')).toBe('o200k_base');
    expect(encodingForModel(undefined)).toBe('o200k_base');
    expect(encodingForModel('azure/gpt-4')).toBe('cl100k_base');
    expect(encodingForModel('openai/gpt-4o')).toBe('o200k_base');
    expect(encodingForModel('ft:gpt-3.5-turbo-0125:acme::abc123')).toBe('cl100k_base');
  });
});

// gpt-tokenizer itself, as the reference: core must give its tokens for every text.
const require = createRequire(import.meta.url);
const reference = {
  o200k_base: require('gpt-tokenizer/encoding/o200k_base') as typeof Encoding,
  cl100k_base: require('gpt-tokenizer/encoding/cl100k_base') as typeof Encoding,
};
const plainText = { disallowedSpecial: new Set<string>() };
/** gpt-tokenizer's decode with a decoder of its own for each call (its shared one carries a cut character into the next call). */
function referenceDecode(encoding: (typeof encodings)[number], tokens: readonly number[]): string {
  return reference[encoding].decode(tokens as number[]) + referenceFlush();
}
/** What the shared streaming decoder still holds: dropped, as a fresh decoder per call drops it. */
function referenceFlush(): string {
  sharedDecoder.decode();
  return '';
}
const sharedDecoder = (require('gpt-tokenizer/BytePairEncodingCore') as { decoder: { decode(): string } }).decoder;
/** The table `pnpm build` writes beside the built tokenizer. */
function builtTable(encoding: (typeof encodings)[number]): string {
  return fileURLToPath(new URL(`../../dist/${rankTableFileName(encoding)}`, import.meta.url));
}
const encodings = ['o200k_base', 'cl100k_base'] as const;

/** Characters that stress the split regexes and the merge: case changes, marks, contractions, whitespace kinds, BOMs, surrogates. */
const awkward = [
  'a',
  'A',
  'é',
  'ß',
  '日',
  '\u0301',
  "'",
  "'s",
  "'LL",
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\r',
  '\u00a0',
  '\u2003',
  '\u3000',
  '\uFEFF',
  '!',
  '/',
  '-',
  '=',
  '1',
  '٣',
  '😀',
  '\uD800',
  '\uDC00',
  '<|endoftext|>',
  'the',
  ' quick',
  'Fox',
  'x ',
];
const awkwardText = fc.array(fc.constantFrom(...awkward), { maxLength: 60 }).map((pieces) => pieces.join(''));
/** Ordinary text with long runs in it: repeated characters or short patterns, up to thousands of characters long. */
const textWithRuns = fc
  .array(
    fc.oneof(
      awkwardText,
      fc.tuple(fc.constantFrom(...awkward), fc.integer({ min: 1, max: 900 })).map(([piece, times]) => piece.repeat(times)),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((pieces) => pieces.join(''));

describe('createTokenizer on any text (long pre-tokens)', () => {
  it('counts and encodes exactly as gpt-tokenizer, with or without long runs', () => {
    for (const encoding of encodings) {
      const tokenizer = createTokenizer(encoding);
      fc.assert(
        fc.property(fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 200 }), awkwardText, textWithRuns), (text) => {
          const expected = reference[encoding].encode(text, plainText);
          expect(tokenizer.encode(text)).toEqual(expected);
          expect(tokenizer.countTokens(text)).toBe(expected.length);
        }),
        { numRuns: 150 },
      );
    }
  });

  it('gives the same tokens with its table read back from bytes, as the built file is read', () => {
    for (const encoding of encodings) {
      const fromFile = createBpeTokenizer(encoding, () => ByteRankTable.fromBytes(buildRankTable(encoding).bytes().slice()));
      fc.assert(
        fc.property(fc.oneof(fc.string({ maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 100 }), awkwardText), (text) => {
          const expected = reference[encoding].encode(text, plainText);
          expect(fromFile.encode(text)).toEqual(expected);
          expect(fromFile.countTokens(text)).toBe(expected.length);
        }),
        { numRuns: 200 },
      );
    }
  });

  it("counts a suffix from the whole text's count exactly, wherever it starts", () => {
    const anyText = fc.oneof(fc.string({ maxLength: 300 }), fc.string({ unit: 'grapheme', maxLength: 150 }), awkwardText, textWithRuns);
    for (const encoding of encodings) {
      const tokenizer = createTokenizer(encoding);
      fc.assert(
        fc.property(anyText, fc.nat(), (text, at) => {
          const start = text.length === 0 ? 0 : at % (text.length + 1);
          expect(tokenizer.countTokensAfter!(text, start, tokenizer.countTokens(text))).toBe(tokenizer.countTokens(text.slice(start)));
        }),
        { numRuns: 300 },
      );
      // A tool call's arguments after its name: the case the counter uses it for.
      const call = 'bash {"command":"cat <<\'EOF\' > a.py\\nimport os\\n    print(os.getcwd())\\nEOF"}';
      const start = 'bash '.length;
      expect(tokenizer.countTokensAfter!(call, start, tokenizer.countTokens(call))).toBe(tokenizer.countTokens(call.slice(start)));
    }
  });

  it('counts up to a limit: exact at or under it, over it when the text is', () => {
    const tokenizer = createTokenizer('o200k_base');
    fc.assert(
      fc.property(fc.oneof(fc.string({ maxLength: 300 }), awkwardText, textWithRuns), fc.nat({ max: 400 }), (text, limit) => {
        const exact = tokenizer.countTokens(text);
        const counted = tokenizer.countTokensUpTo!(text, limit);
        if (exact <= limit) expect(counted).toBe(exact);
        else {
          expect(counted).toBeGreaterThan(limit);
          expect(counted).toBeLessThanOrEqual(exact);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('decodes any tokens as gpt-tokenizer decodes them, byte tokens that cut a character included', () => {
    for (const encoding of encodings) {
      const tokenizer = createTokenizer(encoding);
      fc.assert(
        fc.property(fc.array(fc.integer({ min: 0, max: 99_000 }), { maxLength: 40 }), (tokens) => {
          expect(tokenizer.decode(tokens)).toBe(referenceDecode(encoding, tokens));
        }),
        { numRuns: 200 },
      );
      const text = 'naïve 日本 😀 done';
      expect(tokenizer.decode(tokenizer.encode(text))).toBe(text);
      // A special token's id decodes to its text (no text encodes to it here).
      const endOfText = encoding === 'o200k_base' ? 199_999 : 100_257;
      expect(tokenizer.decode([endOfText])).toBe('<|endoftext|>');
    }
  });

  it('counts 5 million repeated characters, and encodes 2 million, without throwing: exactly one token per 8 a', { timeout: 300_000 }, () => {
    // o200k has "aaaaaaaa"; gpt-tokenizer takes about 12 s at 100,000 characters (quadratic), and its
    // encode() spreads a pre-token's tokens into push(), which overflows the stack past ~125,000.
    const tokenizer = createTokenizer('o200k_base');
    expect(tokenizer.countTokens('a'.repeat(5_000_000))).toBe(625_000);
    const tokens = tokenizer.encode('a'.repeat(2_000_000));
    expect(tokens).toHaveLength(250_000);
    expect(new Set(tokens)).toEqual(new Set([tokenizer.encode('aaaaaaaa')[0]]));
    // The known ratio holds at a size gpt-tokenizer itself can still count.
    expect(tokenizer.countTokens('a'.repeat(4_000))).toBe(reference.o200k_base.countTokens('a'.repeat(4_000), plainText));
    expect(tokenizer.countTokens('a'.repeat(4_000))).toBe(500);
  });

  it('counts long runs of whitespace, punctuation, letters with marks and astral characters exactly', () => {
    for (const encoding of encodings) {
      const tokenizer = createTokenizer(encoding);
      for (const text of [
        ' '.repeat(3_000) + 'x',
        '\n'.repeat(3_000),
        '!'.repeat(3_000),
        'e\u0301'.repeat(1_500),
        '😀'.repeat(1_500),
        'Ab'.repeat(1_500),
        'x\uFEFF'.repeat(1_500),
      ]) {
        const expected = reference[encoding].encode(text, plainText);
        expect(tokenizer.encode(text)).toEqual(expected);
        expect(tokenizer.countTokens(text)).toBe(expected.length);
      }
    }
  });

  it('splits the text around a long pre-token as gpt-tokenizer splits it, whitespace before it included', () => {
    // Two no-break spaces before a run of 257 lone surrogates are two pre-tokens in the text (the
    // lookahead after the first fails on the run); cut off before the run, they would be one.
    const cases = [
      '\u00a0\u00a0' + '\uD800'.repeat(257),
      '\u00a0\u00a0' + '!'.repeat(300),
      '\t\t' + '\u3000'.repeat(2) + '-'.repeat(400),
      `x \n!\n${'='.repeat(300)}`,
    ];
    for (const encoding of encodings) {
      const tokenizer = createTokenizer(encoding);
      for (const text of cases) expect(tokenizer.encode(text)).toEqual(reference[encoding].encode(text, plainText));
    }
  });

  it.skipIf(!existsSync(builtTable('o200k_base')))('ships, once built, the tables built from gpt-tokenizer ranks, byte for byte', () => {
    // Buffer.equals: vitest's deep equality takes seconds on megabytes.
    for (const encoding of encodings) expect(readFileSync(builtTable(encoding)).equals(buildRankTable(encoding).bytes())).toBe(true);
  });
});
