import type { Tokenizer } from '../tokens/tokenizer.js';

/** The longest prefix of `text` within `maxTokens` (decoding a cut can re-tokenise longer; shave). */
export function tokenPrefix(text: string, maxTokens: number, tokenizer: Tokenizer): string {
  if (maxTokens <= 0) return '';
  const encoded = tokenizer.encode(text);
  if (encoded.length <= maxTokens) return text;
  let prefix = tokenizer.decode(encoded.slice(0, maxTokens));
  while (prefix.length > 0 && tokenizer.countTokens(prefix) > maxTokens) prefix = prefix.slice(0, -1);
  return prefix;
}

/**
 * Fits a long tool output for a summarising model: its head and tail (where commands print what
 * matters: what ran, and how it ended), with a marker saying how much was left out.
 */
export function fitToTokens(text: string, maxTokens: number, tokenizer: Tokenizer): string {
  const total = tokenizer.countTokens(text);
  if (total <= maxTokens) return text;
  const head = tokenPrefix(text, Math.floor(maxTokens * 0.7), tokenizer);
  const tailTokens = tokenizer.encode(text).slice(-Math.floor(maxTokens * 0.25));
  return `${head}\n[… ${total - maxTokens} tokens left out …]\n${tokenizer.decode(tailTokens)}`;
}

/**
 * Cuts `text` to at most `maxTokens`, at the last sentence or line end that fits, so an overrunning
 * model reply never ends mid-sentence. Falls back to a plain prefix when no boundary fits.
 */
export function cutAtSentence(text: string, maxTokens: number, tokenizer: Tokenizer): string {
  if (tokenizer.countTokens(text) <= maxTokens) return text;
  const prefix = tokenPrefix(text, maxTokens, tokenizer);
  const boundary = /[.!?](?=\s)|\n/g;
  let end = -1;
  for (let match = boundary.exec(prefix); match; match = boundary.exec(prefix)) end = match.index + 1;
  // A boundary in the first fifth would throw most of the budget away; keep the prefix then.
  const cut = end > prefix.length / 5 ? prefix.slice(0, end) : prefix;
  return cut.trimEnd();
}
