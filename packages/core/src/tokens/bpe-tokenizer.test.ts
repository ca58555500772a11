import { describe, expect, it } from 'vitest';
import { createTokenizer, encodingForModel } from './bpe-tokenizer.js';

// Reference ids are what OpenAI's tiktoken gives for the same strings.
describe('createTokenizer', () => {
  it('counts and encodes exactly in o200k_base', () => {
    const tokenizer = createTokenizer('o200k_base');
    expect(tokenizer.encode('hello world')).toEqual([24912, 2375]);
    expect(tokenizer.encode('Hello, world!')).toEqual([13225, 11, 2375, 0]);
    expect(tokenizer.countTokens('The quick brown fox jumps over the lazy dog.')).toBe(10);
    expect(tokenizer.countTokens('日本語のテキスト')).toBe(6);
  });

  it('counts and encodes exactly in cl100k_base', () => {
    const tokenizer = createTokenizer('cl100k_base');
    expect(tokenizer.encode('hello world')).toEqual([15339, 1917]);
    expect(tokenizer.encode('Hello, world!')).toEqual([9906, 11, 1917, 0]);
    expect(tokenizer.countTokens('日本語のテキスト')).toBe(8);
  });

  it('decodes what it encodes', () => {
    const tokenizer = createTokenizer('o200k_base');
    const source = 'def add(a, b):\n    return a + b\n';
    expect(tokenizer.decode(tokenizer.encode(source))).toBe(source);
    expect(tokenizer.countTokens(source)).toBe(tokenizer.encode(source).length);
  });

  it('treats special-token strings in transcripts as plain text instead of throwing', () => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const tokenizer = createTokenizer(encoding);
      expect(tokenizer.countTokens('log: <|endoftext|> end')).toBeGreaterThan(3);
      expect(tokenizer.encode('<|endoftext|>')).toHaveLength(7);
    }
  });

  it('counts the empty string as zero and shares instances per encoding', () => {
    expect(createTokenizer('o200k_base').countTokens('')).toBe(0);
    expect(createTokenizer('o200k_base')).toBe(createTokenizer());
    expect(createTokenizer('cl100k_base')).not.toBe(createTokenizer('o200k_base'));
  });
});

describe('encodingForModel', () => {
  it('maps OpenAI model families and defaults to o200k_base', () => {
    expect(encodingForModel('gpt-4o-mini')).toBe('o200k_base');
    expect(encodingForModel('o3-mini')).toBe('o200k_base');
    expect(encodingForModel('gpt-4-turbo')).toBe('cl100k_base');
    expect(encodingForModel('gpt-3.5-turbo')).toBe('cl100k_base');
    expect(encodingForModel('qwen2.5-coder:7b')).toBe('o200k_base');
    expect(encodingForModel(undefined)).toBe('o200k_base');
    expect(encodingForModel('azure/gpt-4')).toBe('cl100k_base');
    expect(encodingForModel('openai/gpt-4o')).toBe('o200k_base');
    expect(encodingForModel('ft:gpt-3.5-turbo-0125:acme::abc123')).toBe('cl100k_base');
  });
});
