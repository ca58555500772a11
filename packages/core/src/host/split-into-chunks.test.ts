import { describe, expect, it } from 'vitest';
import { createTokenizer } from '../tokens/bpe-tokenizer.js';
import { TokenCounter } from '../tokens/token-counter.js';
import { splitIntoChunks } from './split-into-chunks.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const note = '[… cut to fit the window]';

describe('splitIntoChunks', () => {
  it('keeps entries whole and in order, each chunk within the budget', () => {
    const entries = Array.from({ length: 12 }, (_, index) => `entry ${index}: ${'word '.repeat(20)}`);
    const chunks = splitIntoChunks(entries, 80, tokens, note);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.join('\n')).toBe(entries.join('\n'));
    for (const chunk of chunks) expect(tokens.countText(chunk)).toBeLessThanOrEqual(80);
  });

  it('cuts an entry larger than the budget and says so; an empty input is one empty chunk', () => {
    const [chunk] = splitIntoChunks(['long '.repeat(500)], 100, tokens, note);
    expect(chunk!.endsWith(`\n${note}`)).toBe(true);
    expect(tokens.countText(chunk!)).toBeLessThanOrEqual(100);
    expect(splitIntoChunks([], 100, tokens, note)).toEqual(['']);
  });
});
