import { describe, expect, it } from 'vitest';
import { renderTable } from './render-table.js';

describe('renderTable', () => {
  it('pads columns to the widest cell and right-aligns numbers', () => {
    const table = renderTable(
      [
        ['kind', 'tokens'],
        ['system', '17'],
        ['tool results', '7,796'],
      ],
      { align: ['left', 'right'], indent: '  ' },
    );
    expect(table).toBe(['  kind          tokens', '  system            17', '  tool results   7,796'].join('\n'));
  });

  it('drops trailing spaces of a short last column', () => {
    expect(
      renderTable([
        ['a', 'long'],
        ['bb', ''],
      ]),
    ).toBe('a   long\nbb');
  });
});
