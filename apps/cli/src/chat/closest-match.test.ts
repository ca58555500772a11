import { describe, expect, it } from 'vitest';
import { closestMatch, editDistance } from './closest-match.js';

const commands = ['compact', 'providers', 'status', 'goal', 'snapshot', 'history', 'export', 'sessions', 'help', 'quit'];

describe('closestMatch', () => {
  it('suggests the command a typo meant', () => {
    expect(closestMatch('compcat', commands)).toBe('compact');
    expect(closestMatch('stauts', commands)).toBe('status');
    expect(closestMatch('snap', commands)).toBe('snapshot');
    expect(closestMatch('histroy', commands)).toBe('history');
  });

  it('suggests nothing for a word unlike any command', () => {
    expect(closestMatch('banana', commands)).toBeUndefined();
    expect(closestMatch('', commands)).toBeUndefined();
  });

  it('counts edits', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
});
