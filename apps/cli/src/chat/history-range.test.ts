import { describe, expect, it } from 'vitest';
import { HISTORY_PAGE, historyRange } from './record-commands.js';

describe('/history pages the record', () => {
  it('shows the newest page by default, not the whole record', () => {
    expect(historyRange('', 144)).toEqual({ from: 144 - HISTORY_PAGE, to: 144 });
    expect(historyRange('', 5)).toEqual({ from: 0, to: 5 });
  });

  it('takes the newest N, a span of message numbers, or all', () => {
    expect(historyRange('5', 144)).toEqual({ from: 139, to: 144 });
    expect(historyRange('1-20', 144)).toEqual({ from: 0, to: 20 });
    expect(historyRange('140-200', 144)).toEqual({ from: 139, to: 144 });
    expect(historyRange('all', 144)).toEqual({ from: 0, to: 144 });
  });

  it('refuses anything else, saying what it takes', () => {
    expect(() => historyRange('last', 10)).toThrow('/history takes N (the newest N), FROM-TO (messages #FROM to #TO) or all; not "last".');
    expect(() => historyRange('9-3', 10)).toThrow(/not "9-3"/);
    expect(() => historyRange('0-3', 10)).toThrow(/not "0-3"/);
  });
});
