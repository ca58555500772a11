import { createRequire } from 'node:module';
import type * as Encoding from 'gpt-tokenizer/encoding/o200k_base';
import type * as SplitPatterns from 'gpt-tokenizer/encodingParams/constants';
import { ByteRankTable, type RawByteRanks } from './byte-rank-table.js';
import { mergeBytePairs } from './merge-byte-pairs.js';
import { preTokenLengthBound } from './pre-token-length-bound.js';
import type { TokenEncoding, Tokenizer } from './tokenizer.js';

// gpt-tokenizer was chosen over js-tiktoken on measured speed; see docs/decisions/0001-tokenizer.md.
// The rank tables are megabytes: they load on first use (synchronously, through the package's
// CommonJS build), so importing @ollm/core — and starting the CLI — stays fast.
const require = createRequire(import.meta.url);
const loaders: Record<TokenEncoding, () => typeof Encoding> = {
  o200k_base: () => require('gpt-tokenizer/encoding/o200k_base') as typeof Encoding,
  cl100k_base: () => require('gpt-tokenizer/encoding/cl100k_base') as typeof Encoding,
};
// The same modules gpt-tokenizer's encodings load: its rank arrays and its split regexes.
const rankLoaders: Record<TokenEncoding, () => RawByteRanks> = {
  o200k_base: () => (require('gpt-tokenizer/bpeRanks/o200k_base') as { default: RawByteRanks }).default,
  cl100k_base: () => (require('gpt-tokenizer/bpeRanks/cl100k_base') as { default: RawByteRanks }).default,
};
const splitPatterns = (): typeof SplitPatterns => require('gpt-tokenizer/encodingParams/constants') as typeof SplitPatterns;
const splitRegexes: Record<TokenEncoding, () => RegExp> = {
  o200k_base: () => splitPatterns().O200K_TOKEN_SPLIT_REGEX,
  cl100k_base: () => splitPatterns().CL100K_TOKEN_SPLIT_REGEX,
};

/**
 * Pre-tokens longer than this many characters (UTF-16 code units) are merged by core's
 * `mergeBytePairs` (O(m log m)) instead of gpt-tokenizer's pair scan (O(m²)); both give the same
 * tokens. A text none of whose pre-tokens can be this long goes to gpt-tokenizer whole, as before.
 * Kept above 128, the longest token in bytes, so no such pre-token is itself a token.
 */
export const LONG_PRE_TOKEN_CHARACTERS = 256;

const WHITESPACE = /\s/;
const cache = new Map<TokenEncoding, Tokenizer>();
// Transcripts can quote special-token strings such as `<|endoftext|>` (a conversation about
// tokenizers, a log file); gpt-tokenizer throws on them by default. To us they are plain text.
const plainText = { disallowedSpecial: new Set<string>() };

/** An exact BPE tokenizer for `encoding` (instances are shared; they hold no per-call state). */
export function createTokenizer(encoding: TokenEncoding = 'o200k_base'): Tokenizer {
  const existing = cache.get(encoding);
  if (existing) return existing;
  const tokenizer = createBpeTokenizer(encoding, LONG_PRE_TOKEN_CHARACTERS);
  cache.set(encoding, tokenizer);
  return tokenizer;
}

/**
 * A new (unshared) exact tokenizer whose pre-tokens over `longPreToken` characters go through
 * core's merge (`mergeBytePairs`). `createTokenizer` is this with `LONG_PRE_TOKEN_CHARACTERS`; tests lower the
 * limit to compare the two merges on every pre-token.
 */
export function createBpeTokenizer(encoding: TokenEncoding, longPreToken: number): Tokenizer {
  const implementation = loaders[encoding]();
  let table: ByteRankTable | undefined;
  const rankTable = (): ByteRankTable => (table ??= new ByteRankTable(rankLoaders[encoding]()));
  const splitRegex = splitRegexes[encoding]();

  /**
   * Walks the text's pre-tokens: runs of ordinary ones go to gpt-tokenizer as one string, each long
   * one to `mergeBytePairs`. A run split out of the text splits as the text did, with one exception:
   * the split regexes look ahead only after whitespace (`\s+(?!\S)`, `\s+$`), so where a run ends
   * in whitespace, a lookahead that failed in the text (on the long pre-token's first character)
   * can succeed at the run's end and join two pre-tokens. So the run's trailing pre-tokens that end
   * in whitespace go to gpt-tokenizer one at a time (a single pre-token splits as itself).
   */
  const walk = (text: string, ordinary: (run: string) => void, long: (preToken: string) => void): void => {
    let runStart = 0;
    const trailing: number[] = [];
    for (const match of text.matchAll(splitRegex)) {
      const preToken = match[0];
      const start = match.index;
      if (preToken.length <= longPreToken) {
        if (WHITESPACE.test(preToken[preToken.length - 1]!)) trailing.push(start);
        else trailing.length = 0;
        continue;
      }
      const safeEnd = trailing[0] ?? start;
      if (safeEnd > runStart) ordinary(text.slice(runStart, safeEnd));
      trailing.forEach((from, index) => ordinary(text.slice(from, trailing[index + 1] ?? start)));
      trailing.length = 0;
      long(preToken);
      runStart = start + preToken.length;
    }
    // The text's own end is the run's end: nothing to look ahead at in either.
    if (runStart < text.length) ordinary(runStart === 0 ? text : text.slice(runStart));
  };
  const mayHaveLongPreToken = (text: string): boolean => text.length > longPreToken && preTokenLengthBound(text, longPreToken) > longPreToken;

  return {
    encoding,
    // encode() would allocate the token array; countTokens avoids it.
    countTokens: (text) => {
      if (text.length === 0) return 0;
      if (!mayHaveLongPreToken(text)) return implementation.countTokens(text, plainText);
      let total = 0;
      walk(
        text,
        (run) => (total += implementation.countTokens(run, plainText)),
        (preToken) => (total += mergeBytePairs(preToken, rankTable(), true)),
      );
      return total;
    },
    encode: (text) => {
      if (!mayHaveLongPreToken(text)) return implementation.encode(text, plainText);
      const tokens: number[] = [];
      // One push per token: spreading a long array into push() overflows the stack.
      const append = (more: readonly number[]): void => {
        for (const token of more) tokens.push(token);
      };
      walk(
        text,
        (run) => append(implementation.encode(run, plainText)),
        (preToken) => append(mergeBytePairs(preToken, rankTable(), false)),
      );
      return tokens;
    },
    decode: (tokens) => implementation.decode(tokens as number[]),
  };
}

/**
 * The encoding a model uses: o200k_base for GPT-4o/4.1/5 and o-series models, cl100k_base for
 * GPT-4/3.5; o200k_base for everything else (local models have their own vocabularies, and
 * o200k is the closer estimate for modern ones; the runtime calibrates against server counts).
 */
export function encodingForModel(model: string | undefined): TokenEncoding {
  if (!model) return 'o200k_base';
  // `openai/gpt-4`, `azure/gpt-4` (router prefixes) and `ft:gpt-3.5-turbo:org::id` (fine-tunes).
  const name = (model.toLowerCase().split('/').pop() ?? '').replace(/^ft:/, '');
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o1|o3|o4|chatgpt-4o)/.test(name)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5|text-embedding-ada|text-embedding-3)/.test(name)) return 'cl100k_base';
  return 'o200k_base';
}
