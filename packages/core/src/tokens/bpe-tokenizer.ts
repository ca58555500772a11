import { createRequire } from 'node:module';
import type * as Encoding from 'gpt-tokenizer/encoding/o200k_base';
import type { TokenEncoding, Tokenizer } from './tokenizer.js';

// gpt-tokenizer was chosen over js-tiktoken on measured speed; see docs/decisions/0001-tokenizer.md.
// The rank tables are megabytes: they load on first use (synchronously, through the package's
// CommonJS build), so importing @ollm/core — and starting the CLI — stays fast.
const require = createRequire(import.meta.url);
const loaders: Record<TokenEncoding, () => typeof Encoding> = {
  o200k_base: () => require('gpt-tokenizer/encoding/o200k_base') as typeof Encoding,
  cl100k_base: () => require('gpt-tokenizer/encoding/cl100k_base') as typeof Encoding,
};
const cache = new Map<TokenEncoding, Tokenizer>();
// Transcripts can quote special-token strings such as `<|endoftext|>` (a conversation about
// tokenizers, a log file); gpt-tokenizer throws on them by default. To us they are plain text.
const plainText = { disallowedSpecial: new Set<string>() };

/** An exact BPE tokenizer for `encoding` (instances are shared; they hold no per-call state). */
export function createTokenizer(encoding: TokenEncoding = 'o200k_base'): Tokenizer {
  const existing = cache.get(encoding);
  if (existing) return existing;
  const implementation = loaders[encoding]();
  const tokenizer: Tokenizer = {
    encoding,
    // encode() would allocate the token array; countTokens avoids it.
    countTokens: (text) => (text.length === 0 ? 0 : implementation.countTokens(text, plainText)),
    encode: (text) => implementation.encode(text, plainText),
    decode: (tokens) => implementation.decode(tokens as number[]),
  };
  cache.set(encoding, tokenizer);
  return tokenizer;
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
