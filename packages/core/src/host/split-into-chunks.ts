import type { TokenCounting } from '../tokens/token-counting.js';
import { tokenPrefix } from './fit-to-tokens.js';

/**
 * Splits rendered entries for a model whose window cannot take them all at once: greedy chunks of
 * whole entries (joined by newlines), each within `budget` tokens. An entry larger than the budget
 * is cut to fit, and `cutNote` on its own line says so. Always at least one chunk.
 */
export function splitIntoChunks(entries: readonly string[], budget: number, tokens: TokenCounting, cutNote: string): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  let used = 0;
  for (let entry of entries) {
    let cost = tokens.countText(entry) + 1;
    if (cost > budget) {
      entry = `${tokenPrefix(entry, budget - 16, tokens.tokenizer)}\n${cutNote}`;
      cost = tokens.countText(entry) + 1;
    }
    if (used + cost > budget && current.length > 0) {
      chunks.push(current.join('\n'));
      current = [];
      used = 0;
    }
    current.push(entry);
    used += cost;
  }
  if (current.length > 0 || chunks.length === 0) chunks.push(current.join('\n'));
  return chunks;
}
