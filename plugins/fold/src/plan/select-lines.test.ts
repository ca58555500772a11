import { describe, expect, it } from 'vitest';
import type { LineSource, SourceLine } from '../lines/source-lines.js';
import { selectLines, type PricedCandidate } from './select-lines.js';

const line = (index: number): SourceLine => ({ index, text: `line ${index}`, normalized: `line ${index}`, kind: 'other', names: [], isFact: true });
const source = (message: number): LineSource => ({ message, part: 0, origin: 'tool-result', lines: [], lineCount: 10 });

describe('selectLines', () => {
  it('takes the most worth per token first, within the budget, paying a header once per source', () => {
    const a = source(1);
    const b = source(2);
    const candidates: PricedCandidate[] = [
      { source: a, line: line(0), value: 10, tokens: 5 },
      { source: a, line: line(1), value: 1, tokens: 5 },
      { source: b, line: line(0), value: 6, tokens: 5 },
    ];
    const chosen = selectLines(candidates, 5 + 5 + 3 + 3, () => 3);
    // a:0 (5 + header 3) and b:0 (5 + header 3) fit; a:1 does not.
    expect([...chosen].map((candidate) => `${candidate.source.message}:${candidate.line.index}`).sort()).toEqual(['1:0', '2:0']);
    expect(selectLines(candidates, 7, () => 3).size).toBe(0);
  });

  it('never takes a line worth nothing', () => {
    expect(selectLines([{ source: source(1), line: line(0), value: 0, tokens: 1 }], 100, () => 0).size).toBe(0);
  });
});
