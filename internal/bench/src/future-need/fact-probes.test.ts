import type { Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { cutAfter, stepsOf } from './cut-points.js';
import { beyondIdentifiers, errorFacts, factLines, isFactLine, isTestSummary, lineProbes, measureLineProbes, MAXIMUM_FACT_LINE } from './fact-probes.js';
import { futureNeeds } from './future-needs.js';
import { normaliseLine, normalisedText, toolOutputLines } from './probe-lines.js';
import { step, text, withResult } from './test-conversation.js';

const cutAfterThree = (messages: readonly Message[]) => cutAfter(messages, 3.5 / stepsOf(messages).length)!;

describe('line normalisation', () => {
  it('reads runs of whitespace, newlines and tabs too, as one space, trimmed', () => {
    expect(normaliseLine('  def  f(x):\t\n   return x  ')).toBe('def f(x): return x');
  });
});

describe('C: fact lines', () => {
  const long = `values = [${'1, '.repeat(80)}split_params_fast]`;
  const conversation: Message[] = [
    text('s', 'system', 'You can run shell commands.'),
    text('u', 'user', 'Fix parse_header in web/http/headers.py.'),
    ...step(1, 'Search.', 'grep -n def web/http/headers.py', '12: def parse_header(line):\n40: def split_params_fast(value):\n51: class HeaderCache(dict):'),
    ...step(2, 'List.', 'ls web/http', 'web/http/util_funcs.py\nweb/http/headers.py'),
    ...step(3, 'Read.', 'cat web/http/util_funcs.py', `def normalize_spacing(value):\n    return value.strip()  # normalize_spacing keeps tabs\n${long}`),
    ...step(4, 'Use split_params_fast, HeaderCache and normalize_spacing from web/http/util_funcs.py.', 'echo ok', 'ok'),
    ...step(5, 'Done.', 'echo done', 'done'),
  ];
  const cut = cutAfterThree(conversation);
  const needs = futureNeeds(conversation, cut);
  const given = normalisedText(conversation.slice(0, 2));
  const probes = factLines(needs, toolOutputLines(cut.prefix), given);

  it('are, for each name, the newest prefix output line holding it, at most 240 characters and with 8 besides its names', () => {
    expect(needs.map((need) => need.text).sort()).toEqual(['HeaderCache', 'normalize_spacing', 'split_params_fast', 'web/http/util_funcs.py']);
    expect(long.length).toBeGreaterThan(MAXIMUM_FACT_LINE);
    expect(probes.sort()).toEqual([
      // The newest line holding split_params_fast is too long: the older one stands for it.
      '40: def split_params_fast(value):',
      '51: class HeaderCache(dict):',
      // The newer of the two lines holding normalize_spacing, normalised.
      'return value.strip() # normalize_spacing keeps tabs',
      // web/http/util_funcs.py: only a listing line held it (nothing besides the name), so no probe.
    ]);
  });

  it('count a line of at most 240 characters with at least 8 non-space characters besides its paths and code names', () => {
    const padded = (length: number) => `x = "${'a'.repeat(length - 6)}"`;
    expect(padded(240)).toHaveLength(240);
    expect(isFactLine(padded(240))).toBe(true);
    expect(isFactLine(padded(241))).toBe(false);
    // `raise` and `ValueError`: 5 characters besides the name.
    expect(beyondIdentifiers('raise ValueError')).toBe(5);
    expect(isFactLine('raise ValueError')).toBe(false);
    expect(isFactLine('raise ValueError("bad")')).toBe(true);
    expect(isFactLine('/testbed/django/db/models/base.py django/db/models/query.py')).toBe(false);
  });

  it('are found in a compacted prefix that keeps them (whitespace aside), lost where a tool output was masked', () => {
    const all = lineProbes(conversation, cut, needs);
    expect([...all.C].sort()).toEqual(probes);
    expect(measureLineProbes(all, normalisedText(cut.prefix)).C.retained).toBe(3);
    const respaced = withResult(cut.prefix, 'c3', 'def normalize_spacing(value):\n\treturn   value.strip() #\tnormalize_spacing keeps tabs');
    expect(measureLineProbes(all, normalisedText(respaced)).C.retained).toBe(3);
    const masked = withResult(cut.prefix, 'c1', '[3 lines masked]');
    expect(measureLineProbes(all, normalisedText(masked)).C).toMatchObject({
      retained: 1,
      lost: ['40: def split_params_fast(value):', '51: class HeaderCache(dict):'],
    });
  });
});

describe('D: error and test facts', () => {
  const firstRun = ['Traceback (most recent call last):', '  File "/testbed/web/old.py", line 3, in old_function', '    old_function()', "KeyError: 'x'"].join(
    '\n',
  );
  const testRun = [
    'E..',
    '======================================================================',
    'ERROR: test_parse (tests.test_headers.HeaderTests)',
    'Traceback (most recent call last):',
    '  File "/testbed/tests/test_headers.py", line 20, in test_parse',
    '    parse_header(value)',
    '  File "/testbed/web/http/headers.py", line 14, in parse_header',
    '    return split_params_fast(line)',
    '  File "/usr/lib/python3.11/re.py", line 5, in compile',
    '    raise error',
    'ValueError: header line has no colon separator',
    '----------------------------------------------------------------------',
    'Ran 3 tests in 0.012s',
    '',
    'FAILED (errors=1)',
  ].join('\n');
  const conversationWith = (later: Message[]): Message[] => [
    text('s', 'system', 'You can run shell commands.'),
    text('u', 'user', 'Fix parse_header in web/http/headers.py.'),
    ...step(1, 'Run it.', 'python web/old.py', firstRun),
    ...step(2, 'Run the tests.', 'python -m unittest tests.test_headers', testRun),
    ...step(3, 'Something else.', 'python other.py', 'OK\nTypeError: unsupported operand type(s) for +'),
    ...later,
    ...step(9, 'Done.', 'echo done', 'done'),
  ];

  it('are exception lines whose type or message later messages name, test summaries when later messages speak of tests, and frames of the last traceback they name', () => {
    const conversation = conversationWith(
      step(4, 'The ValueError comes from parse_header; old_function is unrelated. Run them again.', 'python -m unittest tests/test_headers.py', 'ok'),
    );
    const cut = cutAfterThree(conversation);
    expect(errorFacts(toolOutputLines(cut.prefix), cut.later, '').sort()).toEqual(
      [
        'ValueError: header line has no colon separator',
        'Ran 3 tests in 0.012s',
        'FAILED (errors=1)',
        'OK',
        // By its path (tests/test_headers.py), by its function (parse_header); re.py's `compile` is no code name and its path is never named.
        'File "/testbed/tests/test_headers.py", line 20, in test_parse',
        'File "/testbed/web/http/headers.py", line 14, in parse_header',
        // KeyError and TypeError are never named later ('x' is too short to count); old.py's frame is of an older traceback.
      ].sort(),
    );
  });

  it('leave out test summaries when no later message speaks of tests, and exceptions no later message names', () => {
    const conversation = conversationWith(step(4, 'Now parse_header is fixed, I believe.', 'echo fixed', 'fixed'));
    const cut = cutAfterThree(conversation);
    expect(errorFacts(toolOutputLines(cut.prefix), cut.later, '')).toEqual(['File "/testbed/web/http/headers.py", line 14, in parse_header']);
  });

  it('recognise pytest and unittest summaries', () => {
    for (const line of [
      'Ran 1 test in 0.001s',
      'OK',
      'OK (skipped=2)',
      'FAILED (failures=1)',
      'FAILED tests/test_a.py::test_b - AssertionError',
      '=== 1 failed, 2 passed in 0.10s ===',
    ])
      expect(isTestSummary(line), line).toBe(true);
    for (const line of ['OKAY then', 'Ran out of tests', 'passed the value on']) expect(isTestSummary(line), line).toBe(false);
  });

  it('are lost when the compacted prefix drops the output that printed them', () => {
    const conversation = conversationWith(step(4, 'The ValueError again; run the tests.', 'python -m unittest', 'ok'));
    const cut = cutAfterThree(conversation);
    const probes = lineProbes(conversation, cut, futureNeeds(conversation, cut));
    expect(probes.D.length).toBe(4);
    expect(measureLineProbes(probes, normalisedText(cut.prefix)).D.retained).toBe(4);
    const masked = withResult(cut.prefix, 'c2', '[test output masked]');
    // `OK` (step 3) stays; the three lines of the test run go.
    expect(measureLineProbes(probes, normalisedText(masked)).D.retained).toBe(1);
  });
});
