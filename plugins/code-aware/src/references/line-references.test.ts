import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SOURCE_PATH, findLineMentions, mentionedPaths } from './line-references.js';

const cited = (text: string) => findLineMentions(text).mentions.map(({ path, from, to }) => `${path}:${from}-${to}`);

describe('findLineMentions', () => {
  it('reads grep hits of every source extension, also where a shorter one is a prefix (.pyi, .cc)', () => {
    const grep = ['app/models.py:12:    def save(self):', "'src/lib.cc:7-  return 0;", 'stubs/types.pyi:3:def f() -> int: ...', 'notes.txt:9: not source'].join(
      '\n',
    );
    expect(cited(grep)).toEqual(['app/models.py:12-12', 'src/lib.cc:7-7', 'stubs/types.pyi:3-3']);
  });

  it('reads none where no source file is followed by a line number', () => {
    expect(cited('app/models.py has 12 functions\nrun: 3 passed')).toEqual([]);
  });

  it('reads traceback frames and diff hunks', () => {
    const text = ['File "/testbed/app/models.py", line 41, in save', '--- a/app/views.py', '+++ b/app/views.py', '@@ -10,3 +10,4 @@'].join('\n');
    expect(cited(text)).toEqual(['/testbed/app/models.py:41-41', 'app/views.py:10-12']);
    expect(findLineMentions(text).hunks).toBe(true);
  });
});

describe('mentionedPaths', () => {
  it('finds what the path pattern finds tried at every character', () => {
    const everywhere = new RegExp(SOURCE_PATH, 'g');
    const pieces = ['a', 'b', '.', 'py', 'pyi', '/', '-', '_', 'c', 'cc', 'pp', 'h', 'x', ' ', '1', ':', '"', '\n', 'ts', 'x.', '..', 'é'];
    const text = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect(mentionedPaths(value)).toEqual([...new Set([...value.matchAll(everywhere)].map((match) => match[1]!))]);
      }),
      { numRuns: 20_000 },
    );
  });
});
