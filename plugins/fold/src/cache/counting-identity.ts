import { TokenCounter, createTokenizer, type TokenCounting, type TokenEncoding } from '@ollm/core';

/** Which counts can be shared: counts made with one counting hold for every other of the same id. */
export interface CountingIdentity {
  readonly id: number;
  /**
   * True when the tokens of a JSON array written with one-space indentation are the sum of its
   * parts' (see `savedFormTokens`): core's counter over one of its own BPE encodings, whose
   * pre-tokenizer always splits after the `},\n` that ends an element.
   */
  readonly exactSegments: boolean;
}

const ENCODINGS: ReadonlySet<TokenEncoding> = new Set(['o200k_base', 'cl100k_base']);
const identities = new WeakMap<object, CountingIdentity>();
let nextId = 1;

/**
 * The identity of `tokens`' counts. Core's `TokenCounter` counts a text by its tokenizer alone
 * (and a message as its overhead plus its parts), so two of them on one tokenizer share counts;
 * any other implementation shares counts only with itself.
 */
export function countingIdentity(tokens: TokenCounting): CountingIdentity {
  const core = Object.getPrototypeOf(tokens) === TokenCounter.prototype;
  const owner: object = core ? tokens.tokenizer : tokens;
  let identity = identities.get(owner);
  if (identity === undefined) {
    const encoding = tokens.tokenizer.encoding;
    const exactSegments = core && ENCODINGS.has(encoding) && tokens.tokenizer === createTokenizer(encoding);
    identity = { id: nextId++, exactSegments };
    identities.set(owner, identity);
  }
  return identity;
}
