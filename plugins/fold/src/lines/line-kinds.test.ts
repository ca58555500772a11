import { describe, expect, it } from 'vitest';
import { lineKind, normalizeLine } from './line-kinds.js';
import { linesOf, splitSentences } from './source-lines.js';

describe('lineKind', () => {
  it('tells exceptions, test summaries and traceback frames from other lines', () => {
    expect(lineKind('ValueError: invalid literal for int()')).toBe('error');
    expect(lineKind('django.core.exceptions.FieldError: Cannot resolve keyword')).toBe('error');
    expect(lineKind("E       KeyError: 'name'")).toBe('error');
    expect(lineKind('3 failed, 12 passed in 0.41s')).toBe('test');
    expect(lineKind('Ran 7 tests in 0.012s')).toBe('test');
    expect(lineKind('OK (skipped=2)')).toBe('test');
    expect(lineKind('FAILED tests/test_x.py::test_y - AssertionError')).toBe('test');
    expect(lineKind('File "/testbed/app.py", line 12, in main')).toBe('frame');
    expect(lineKind('    return self.name')).toBe('other');
    expect(lineKind('The ValueError happens later')).toBe('other');
  });

  it('normalises white space only', () => {
    expect(normalizeLine('  a \t b\u00a0 c  ')).toBe('a b c');
  });
});

describe('source lines', () => {
  it('keeps lines as written (indentation kept, trailing space dropped), leaves out a tool wrapper and lines too long to be worth it', () => {
    const { lines, count } = linesOf(['<returncode>0</returncode>', '<output>', '    def get_name(self):   ', 'x'.repeat(500), '</output>'].join('\n'), false);
    expect(count).toBe(5);
    expect(lines.map((line) => line.text)).toEqual(['    def get_name(self):']);
    expect(lines[0]!.names).toEqual(['get_name']);
    expect(lines[0]!.isFact).toBe(true);
  });

  it('a line that is only names is no fact line', () => {
    const [line] = linesOf('django/db/models/base.py get_FIELD_display', false).lines;
    expect(line!.isFact).toBe(false);
  });

  it('splits chat prose into sentences', () => {
    expect(splitSentences('I went to Lisbon. It was sunny! Did you go?\nYes.')).toEqual(['I went to Lisbon.', 'It was sunny!', 'Did you go?', 'Yes.']);
  });
});
