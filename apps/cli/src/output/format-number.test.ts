import { describe, expect, it } from 'vitest';
import { formatChange, formatInteger, formatMilliseconds, formatShare } from './format-number.js';

describe('number formatting', () => {
  it('groups thousands the same on every machine', () => {
    expect(formatInteger(17837)).toBe('17,837');
    expect(formatInteger(0)).toBe('0');
    expect(formatInteger(1234567)).toBe('1,234,567');
  });

  it('signs changes and shares with one decimal', () => {
    expect(formatChange(17837, 8912)).toBe('-50.0%');
    expect(formatChange(100, 100)).toBe('+0.0%');
    expect(formatChange(0, 0)).toBe('+0.0%');
    expect(formatShare(1, 3)).toBe('33.3%');
    expect(formatShare(5, 0)).toBe('0.0%');
  });

  it('switches from milliseconds to seconds at one second', () => {
    expect(formatMilliseconds(12.4)).toBe('12 ms');
    expect(formatMilliseconds(1530)).toBe('1.5 s');
  });
});
