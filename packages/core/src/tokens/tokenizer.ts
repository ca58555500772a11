/** The BPE encodings ollm counts with. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base';

/** Counts tokens of text exactly as a model's BPE encoding would. */
export interface Tokenizer {
  readonly encoding: TokenEncoding;
  countTokens(text: string): number;
  encode(text: string): number[];
  decode(tokens: readonly number[]): string;
}
