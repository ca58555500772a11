import { TokenCounter, type TokenCounting } from '@ollm/core';

/**
 * What counts made with `tokens` can be shared with: core's `TokenCounter` counts a text by its
 * tokenizer alone, so every such counter on one tokenizer shares counts; any other implementation
 * shares them only with itself. Caches of results that depend on counts are kept per owner.
 */
export function countingOwner(tokens: TokenCounting): object {
  return Object.getPrototypeOf(tokens) === TokenCounter.prototype ? tokens.tokenizer : tokens;
}
