import { describe, expect, it } from 'vitest';
import { createTokenizer } from '../tokens/bpe-tokenizer.js';
import { TokenCounter } from '../tokens/token-counter.js';
import { cutAtSentence } from './fit-to-tokens.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));

describe('cutAtSentence', () => {
  it('cuts an overrunning text at the last sentence end that fits', () => {
    const text = 'First sentence is here. Second sentence is a bit longer than the first one. Third one never fits at all because the budget is small.';
    const cut = cutAtSentence(text, 18, tokens.tokenizer);
    expect(cut).toBe('First sentence is here. Second sentence is a bit longer than the first one.');
    expect(tokens.countText(cut)).toBeLessThanOrEqual(18);
    expect(cutAtSentence('short.', 18, tokens.tokenizer)).toBe('short.');
  });
});
