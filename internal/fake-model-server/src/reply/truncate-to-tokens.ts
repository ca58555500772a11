import type { Tokenizer } from '@ollm/core';

/** The longest prefix of `text` that fits in `maxTokens` tokens. */
export function truncateToTokens(text: string, maxTokens: number, tokenizer: Tokenizer): string {
  if (maxTokens <= 0) return '';
  const tokens = tokenizer.encode(text);
  if (tokens.length <= maxTokens) return text;
  let prefix = tokenizer.decode(tokens.slice(0, maxTokens));
  // Decoding a cut token sequence can re-tokenise longer; shave until it fits.
  while (prefix.length > 0 && tokenizer.countTokens(prefix) > maxTokens) prefix = prefix.slice(0, -1);
  return prefix;
}
