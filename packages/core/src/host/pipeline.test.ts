import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { parsePipeline } from './pipeline.js';

describe('parsePipeline', () => {
  it('reads names in order, spaces allowed, and writes them back canonically', () => {
    expect(parsePipeline(' mask , code-aware,trim ')).toEqual({ names: ['mask', 'code-aware', 'trim'], text: 'mask,code-aware,trim' });
    expect(parsePipeline('trim')).toEqual({ names: ['trim'], text: 'trim' });
    expect(parsePipeline('')).toEqual({ names: [], text: '' });
  });

  it('refuses an empty name and a repeated one', () => {
    for (const [text, words] of [
      ['mask,,trim', /not a pipeline/],
      ['mask,', /not a pipeline/],
      ['trim,mask,trim', /names trim twice/],
    ] as const) {
      let caught: unknown;
      try {
        parsePipeline(text);
      } catch (error) {
        caught = error;
      }
      expect(InvalidArgumentError.isInstance(caught)).toBe(true);
      expect((caught as Error).message).toMatch(words);
    }
  });
});
