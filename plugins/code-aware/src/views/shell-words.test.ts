import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWhiteSpace, shellWords, splitCommandLine } from './shell-words.js';

/** The split as it was written first, one character appended at a time: the reference. */
function referenceSplit(command: string): string[][] {
  const statements: string[][] = [];
  let stages: string[] = [];
  let current = '';
  let quote: '"' | "'" | undefined;
  const endStage = (): void => {
    if (current.trim() !== '') stages.push(current.trim());
    current = '';
  };
  const endStatement = (): void => {
    endStage();
    if (stages.length > 0) statements.push(stages);
    stages = [];
  };
  for (let index = 0; index < command.length; index++) {
    const character = command[index]!;
    const next = command[index + 1];
    if (quote) {
      if (character === quote) quote = undefined;
      current += character;
      continue;
    }
    if (character === "'" || character === '"') {
      quote = character;
      current += character;
    } else if ((character === '&' && next === '&') || (character === '|' && next === '|')) {
      endStatement();
      index++;
    } else if (character === ';' || character === '\n') {
      endStatement();
    } else if (character === '|') {
      endStage();
    } else {
      current += character;
    }
  }
  endStatement();
  return statements;
}

/** Commands made of the characters the splitting and quoting rules turn on. */
const command = fc.string({ unit: fc.constantFrom('a', 'b', 'c', ' ', '\t', '\u00a0', '&', '|', ';', '\n', "'", '"', '\\', '-', '.'), maxLength: 60 });

describe('isWhiteSpace', () => {
  it('is \\s for every UTF-16 unit', () => {
    for (let code = 0; code <= 0xffff; code++) expect(isWhiteSpace(code)).toBe(/\s/.test(String.fromCharCode(code)));
  });
});

describe('splitCommandLine', () => {
  it('splits statements and stages outside quotes', () => {
    expect(splitCommandLine(`cd /repo && sed -n '1,5p' a.py | grep -n "x|y"; ls\nnl b.py || true`)).toEqual([
      ['cd /repo'],
      ["sed -n '1,5p' a.py", 'grep -n "x|y"'],
      ['ls'],
      ['nl b.py'],
      ['true'],
    ]);
  });

  it('gives what the reference gives on any command', () => {
    fc.assert(
      fc.property(command, (text) => {
        expect(splitCommandLine(text)).toEqual(referenceSplit(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('shellWords', () => {
  it('unquotes words', () => {
    expect(shellWords(`sed -n '10,20p' "a b.py" c\\ d.py`)).toEqual(['sed', '-n', '10,20p', 'a b.py', 'c d.py']);
  });

  it('with maxWords, gives the first words of the whole split', () => {
    fc.assert(
      fc.property(command, fc.nat(4), (text, maxWords) => {
        expect(shellWords(text, maxWords)).toEqual(shellWords(text).slice(0, maxWords));
      }),
      { numRuns: 5000 },
    );
  });
});
