import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Encoding from 'gpt-tokenizer/encoding/o200k_base';
import type * as SplitPatterns from 'gpt-tokenizer/encodingParams/constants';
import { ByteRankTable, type RawByteRanks } from './byte-rank-table.js';
import { mergeBytePairs } from './merge-byte-pairs.js';
import type { TokenEncoding, Tokenizer } from './tokenizer.js';

// The ranks and split regexes are gpt-tokenizer's (chosen over js-tiktoken on measured speed; see
// docs/decisions/0001-tokenizer.md); the encoding loop is core's own. gpt-tokenizer's rank module
// is 2 MB of JavaScript that takes ~280 ms to compile and turn into maps, so the build writes each
// table once in core's flat form (`dist/<encoding>.ranks`, beside the bundle, written by
// `scripts/write-rank-tables.mjs`)
// and a process reads it on first use; where it has not been built (tests run from the sources) the
// table is built from gpt-tokenizer's ranks, the same table either way.
const require = createRequire(import.meta.url);
const rankLoaders: Record<TokenEncoding, () => RawByteRanks> = {
  o200k_base: () => (require('gpt-tokenizer/bpeRanks/o200k_base') as { default: RawByteRanks }).default,
  cl100k_base: () => (require('gpt-tokenizer/bpeRanks/cl100k_base') as { default: RawByteRanks }).default,
};
// gpt-tokenizer's own encodings, only to decode special-token ids (which no text encodes to here).
const encodingLoaders: Record<TokenEncoding, () => typeof Encoding> = {
  o200k_base: () => require('gpt-tokenizer/encoding/o200k_base') as typeof Encoding,
  cl100k_base: () => require('gpt-tokenizer/encoding/cl100k_base') as typeof Encoding,
};
const splitPatterns = (): typeof SplitPatterns => require('gpt-tokenizer/encodingParams/constants') as typeof SplitPatterns;
const splitRegexes: Record<TokenEncoding, () => RegExp> = {
  o200k_base: () => splitPatterns().O200K_TOKEN_SPLIT_REGEX,
  cl100k_base: () => splitPatterns().CL100K_TOKEN_SPLIT_REGEX,
};

/** The file name of `encoding`'s built rank table, in dist/ beside core's bundle (which is this module once built). */
export function rankTableFileName(encoding: TokenEncoding): string {
  return `${encoding}.ranks`;
}

/** `encoding`'s table built from gpt-tokenizer's ranks (what the build writes to its file). */
export function buildRankTable(encoding: TokenEncoding): ByteRankTable {
  return ByteRankTable.fromRawRanks(rankLoaders[encoding]());
}

/** The built file when there is one and it reads as a table, otherwise the table built from the ranks. */
function loadRankTable(encoding: TokenEncoding): ByteRankTable {
  let data: Uint8Array | undefined;
  try {
    data = readFileSync(new URL(`./${rankTableFileName(encoding)}`, import.meta.url));
  } catch {
    data = undefined; // not built (run from the sources)
  }
  if (data !== undefined) {
    try {
      return ByteRankTable.fromBytes(data);
    } catch {
      // A damaged file is not used; the ranks give the same table.
    }
  }
  return buildRankTable(encoding);
}

/** Merged pre-tokens remembered per tokenizer (gpt-tokenizer keeps as many), oldest dropped first. */
const MERGE_CACHE_ENTRIES = 100_000;
/** Longer pre-tokens are merged every time (they are rare, and would make the cache large). */
const MERGE_CACHE_CHARACTERS = 256;

const cache = new Map<TokenEncoding, Tokenizer>();

/** An exact BPE tokenizer for `encoding` (instances are shared; they hold no per-call state). */
export function createTokenizer(encoding: TokenEncoding = 'o200k_base'): Tokenizer {
  const existing = cache.get(encoding);
  if (existing) return existing;
  const tokenizer = createBpeTokenizer(encoding);
  cache.set(encoding, tokenizer);
  return tokenizer;
}

/**
 * A new (unshared) exact tokenizer. It encodes as gpt-tokenizer's `countTokens` / `encode` do with
 * no special tokens allowed or disallowed (transcripts quote strings such as `<|endoftext|>`; to us
 * they are plain text): the text is split by the encoding's regex, each pre-token is looked up
 * whole, and one that is no token is merged by `mergeBytePairs` (O(m log m) where gpt-tokenizer's
 * pair scan is O(m²), same tokens). The rank table loads on the first count, not on import
 * (`rankTable`: the built file, or the table built from gpt-tokenizer's ranks).
 */
export function createBpeTokenizer(encoding: TokenEncoding, rankTable: () => ByteRankTable = () => loadRankTable(encoding)): Tokenizer {
  let table: ByteRankTable | undefined;
  const merged = new Map<string, readonly number[]>();

  const merge = (rankTable: ByteRankTable, preToken: string): readonly number[] => {
    const known = merged.get(preToken);
    if (known !== undefined) return known;
    const tokens = mergeBytePairs(preToken, rankTable, false, true);
    if (preToken.length <= MERGE_CACHE_CHARACTERS) {
      if (merged.size >= MERGE_CACHE_ENTRIES) merged.delete(merged.keys().next().value!);
      merged.set(preToken, tokens);
    }
    return tokens;
  };

  // The loops call `exec` on regexes of their own (16% faster than `matchAll`, which clones the
  // regex and builds an iterator on every call); they run to the end synchronously and never inside
  // one another, so one instance serves each (and `countTokensAfter` walks two at once).
  let loopRegex: RegExp | undefined;
  let wholeRegex: RegExp | undefined;
  let suffixRegex: RegExp | undefined;
  const forEachPreToken = (text: string, visit: (preToken: string) => boolean | void): void => {
    table ??= rankTable();
    const regex = (loopRegex ??= new RegExp(splitRegexes[encoding]()));
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) if (visit(match[0]) === false) break;
  };

  const countPreToken = (preToken: string): number => (table!.wholeTextRank(preToken) !== undefined ? 1 : merge(table!, preToken).length);

  return {
    encoding,
    countTokens: (text) => {
      if (text.length === 0) return 0;
      let total = 0;
      forEachPreToken(text, (preToken) => {
        total += countPreToken(preToken);
      });
      return total;
    },
    // Pre-tokens are merged one by one, so the count of the first k is exact whatever follows.
    countTokensUpTo: (text, limit) => {
      let total = 0;
      if (text.length === 0) return total;
      forEachPreToken(text, (preToken) => {
        total += countPreToken(preToken);
        return total <= limit;
      });
      return total;
    },
    countTokensAfter: (text, start, textTokens) => {
      table ??= rankTable();
      wholeRegex ??= new RegExp(splitRegexes[encoding]());
      suffixRegex ??= new RegExp(splitRegexes[encoding]());
      return countAfter(wholeRegex, suffixRegex, countPreToken, text, start, textTokens);
    },
    encode: (text) => {
      const tokens: number[] = [];
      if (text.length === 0) return tokens;
      forEachPreToken(text, (preToken) => {
        const whole = table!.wholeTextRank(preToken);
        if (whole !== undefined) tokens.push(whole);
        // One push per token: spreading a long array into push() overflows the stack.
        else for (const token of merge(table!, preToken)) tokens.push(token);
      });
      return tokens;
    },
    decode: (tokens) => {
      table ??= rankTable();
      return decodeTokens(table, tokens) ?? encodingLoaders[encoding]().decode(tokens as number[]);
    },
  };
}

/**
 * The tokens of `text.slice(start)`, from the count of the whole `text`: the split regexes look
 * only ahead (never behind), so once the splits of `text` and of the suffix start a pre-token at
 * the same place they are the same from there on. Both are walked from their start to that place:
 * the answer is the whole's count, less its pre-tokens before that place, plus the suffix's. That
 * costs the prefix and a pre-token or two instead of the suffix (a tool call's arguments after its
 * name). Where the splits never meet, the suffix is counted whole.
 */
function countAfter(
  wholeRegex: RegExp,
  suffixRegex: RegExp,
  countPreToken: (preToken: string) => number,
  text: string,
  start: number,
  textTokens: number,
): number {
  if (start <= 0) return textTokens;
  const suffix = text.slice(start);
  if (suffix.length === 0) return 0;
  wholeRegex.lastIndex = 0;
  suffixRegex.lastIndex = 0;
  let before = 0;
  let mine = 0;
  let wholeMatch = wholeRegex.exec(text);
  let ownMatch = suffixRegex.exec(suffix);
  while (wholeMatch !== null && ownMatch !== null) {
    const wholeAt = wholeMatch.index;
    const ownAt = start + ownMatch.index;
    if (wholeAt === ownAt) return textTokens - before + mine;
    if (wholeAt < ownAt) {
      before += countPreToken(wholeMatch[0]);
      wholeMatch = wholeRegex.exec(text);
    } else {
      mine += countPreToken(ownMatch[0]);
      ownMatch = suffixRegex.exec(suffix);
    }
  }
  // No common start before one split ended: count what is left of the suffix.
  for (; ownMatch !== null; ownMatch = suffixRegex.exec(suffix)) mine += countPreToken(ownMatch[0]);
  return mine;
}

const textDecoder = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * gpt-tokenizer's `decodeNative`: a text token is its own text, runs of byte tokens are decoded
 * together (a character cut short at the end is dropped). Undefined when a token is not in the table
 * (a special token, or no token at all): gpt-tokenizer then decodes (or throws).
 */
function decodeTokens(table: ByteRankTable, tokens: readonly number[]): string | undefined {
  // One stream per call, as gpt-tokenizer's decoder is after a flush: it drops a byte-order mark
  // that starts the first run of byte tokens (a text token keeps its own, as there).
  const bytes = new TextDecoder('utf-8');
  let decoded = '';
  let pending: number[] = [];
  const flush = (): void => {
    if (pending.length === 0) return;
    decoded += bytes.decode(Uint8Array.from(pending), { stream: true });
    pending = [];
  };
  for (const token of tokens) {
    const entry = table.tokenBytes(token);
    if (entry === undefined) return undefined;
    if (entry.text) {
      flush();
      decoded += textDecoder.decode(entry.bytes);
    } else {
      for (const byte of entry.bytes) pending.push(byte);
    }
  }
  flush();
  return decoded;
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
