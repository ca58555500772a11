import { tokenPrefix, type Tokenizer } from '@ollm/core';
import { scoreSentences } from './score-sentences.js';

/**
 * An extractive digest of `text`: the highest-scoring sentences, in their original order, as a
 * bullet list that fits in `maxTokens` (o200k tokens). Deterministic for a given input.
 */
export function extractiveDigest(text: string, maxTokens: number, tokenizer: Tokenizer): string {
  const sentences = scoreSentences(text);
  const ranked = [...sentences].sort((a, b) => b.score - a.score || a.index - b.index);
  const chosen: typeof sentences = [];
  let used = 0;
  for (const sentence of ranked) {
    // Each bullet is its own line; a line's tokens add up (the newline is one more token).
    const cost = tokenizer.countTokens(`- ${sentence.text}`) + 1;
    if (used + cost > maxTokens) continue;
    chosen.push(sentence);
    used += cost;
  }
  if (chosen.length === 0 && ranked[0]) return tokenPrefix(`- ${ranked[0].text}`, maxTokens, tokenizer);
  const digest = chosen
    .sort((a, b) => a.index - b.index)
    .map((sentence) => `- ${sentence.text}`)
    .join('\n');
  return tokenPrefix(digest, maxTokens, tokenizer);
}
