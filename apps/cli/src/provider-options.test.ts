import { InvalidArgumentError } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { collectProviderOption, parseProviderOptionFlags } from './provider-options.js';

describe('--provider-option PROVIDER.KEY=VALUE', () => {
  it('reads JSON values, and the text itself otherwise', () => {
    expect(
      parseProviderOptionFlags([
        'trim.previewLines=0',
        'trim.additionalPasses=false',
        'goal-aware.levels=[1,2]',
        'mask.note=keep it',
        'mask.quoted="007"',
        'summarize.prompt=a=b',
      ]),
    ).toEqual({
      trim: { previewLines: 0, additionalPasses: false },
      'goal-aware': { levels: [1, 2] },
      mask: { note: 'keep it', quoted: '007' },
      summarize: { prompt: 'a=b' },
    });
  });

  it('lets a later flag for the same key win', () => {
    expect(parseProviderOptionFlags(['trim.previewLines=3', 'trim.previewLines=1'])).toEqual({ trim: { previewLines: 1 } });
  });

  it('collects every occurrence', () => {
    expect(collectProviderOption('b', collectProviderOption('a'))).toEqual(['a', 'b']);
  });

  it.each(['trim', 'trim=1', '.previewLines=1', 'trim.=1', 'trim.previewLines'])('refuses "%s" with the form to use', (flag) => {
    const error = (() => {
      try {
        return parseProviderOptionFlags([flag]);
      } catch (caught) {
        return caught;
      }
    })();
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(`Invalid --provider-option "${flag}": use PROVIDER.KEY=VALUE, e.g. trim.previewLines=0.`);
  });
});
