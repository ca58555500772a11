/** The BPE encodings ollm counts with. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base';

/** Counts tokens of text exactly as a model's BPE encoding would. */
export interface Tokenizer {
  readonly encoding: TokenEncoding;
  countTokens(text: string): number;
  /**
   * Counts `text` only as far as needed to tell whether it has more than `limit` tokens: the exact
   * count when it has at most `limit`, otherwise any number above `limit`. Optional; without it a
   * caller counts the whole text.
   */
  countTokensUpTo?(text: string, limit: number): number;
  /**
   * The exact tokens of `text.slice(start)`, given `textTokens`, the tokens of the whole `text`
   * (from `countTokens`): cheaper than counting the suffix when the prefix is short. Optional.
   */
  countTokensAfter?(text: string, start: number, textTokens: number): number;
  encode(text: string): number[];
  decode(tokens: readonly number[]): string;
}
