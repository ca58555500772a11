import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitContinuation } from './line-continuation.js';

const withoutTrailingBackslash = fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\\', '/', 'é'), maxLength: 20 }).map((text) => text.replace(/\\+$/, ''));

describe('line continuation', () => {
  it('continues on one trailing backslash and drops it', () => {
    expect(splitContinuation('first \\')).toEqual({ text: 'first ', continues: true });
  });

  it('takes two trailing backslashes as one literal backslash', () => {
    expect(splitContinuation('C:\\temp\\\\')).toEqual({ text: 'C:\\temp\\', continues: false });
  });

  it('leaves backslashes inside the line alone', () => {
    expect(splitContinuation('a\\nb \\\\d+ c')).toEqual({ text: 'a\\nb \\\\d+ c', continues: false });
  });

  it('halves any trailing run of backslashes and continues when it is odd', () => {
    fc.assert(
      fc.property(withoutTrailingBackslash, fc.nat({ max: 7 }), (text, count) => {
        expect(splitContinuation(text + '\\'.repeat(count))).toEqual({ text: text + '\\'.repeat(Math.floor(count / 2)), continues: count % 2 === 1 });
      }),
    );
  });
});
