import { describe, expect, it } from 'vitest';
import { parseLimit, resolveLimit } from './parse-limit.js';

describe('--limit', () => {
  it('reads token counts and shares', () => {
    expect(parseLimit('8000')).toEqual({ kind: 'tokens', tokens: 8000 });
    expect(parseLimit('50%')).toEqual({ kind: 'percent', percent: 50 });
    expect(parseLimit('12.5%')).toEqual({ kind: 'percent', percent: 12.5 });
  });

  it.each(['0', '0%', '101%', '-5', 'half', '8k', '', '12.5'])('rejects %j', (text) => {
    expect(parseLimit(text)).toBeUndefined();
  });

  it('resolves a share against each conversation, rounding down', () => {
    expect(resolveLimit({ kind: 'percent', percent: 50 }, 17837)).toBe(8918);
    expect(resolveLimit({ kind: 'tokens', tokens: 8000 }, 17837)).toBe(8000);
  });
});
