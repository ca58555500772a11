/**
 * What a line of tool output is to an agent that comes back to it: an exception, a test run's
 * summary, a traceback frame, or anything else. The first three are the facts a debugging agent
 * acts on next and cost a few tokens each; a compaction keeps them before any other line.
 */
export type LineKind = 'error' | 'test' | 'frame' | 'other';

/** `ValueError: …`, `django.core.exceptions.FieldError: …`, `AssertionError` alone, `E   KeyError: 'x'` (pytest). */
const EXCEPTION_LINE = /^(?:E\s+)?(?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Error|Exception|Warning|Failure|Exit|Interrupt)\b(?::|$)/;
/** `12 passed`, `3 failed, 1 error`, `FAILED tests/x.py::test_y`, `Ran 7 tests in 0.1s`, `OK`, `OK (skipped=2)`, `FAILED (failures=1)`. */
const TEST_SUMMARY =
  /^(?:=+\s*)?(?:\d+ (?:passed|failed|errors?|skipped|xfailed|deselected)\b|FAILED\b|ERROR:? \S|Ran \d+ tests?\b|OK(?: \(.*\))?$|PASSED\b|FAIL:|ERROR \()/;
/** `  File "/testbed/x.py", line 12, in f`. */
const FRAME = /^File "[^"]+", line \d+/;

/** The kind of one line (its text trimmed). */
export function lineKind(trimmed: string): LineKind {
  if (trimmed.length === 0 || trimmed.length > 400) return 'other';
  const first = trimmed.charCodeAt(0);
  if (first === 70 /* F */ && FRAME.test(trimmed)) return 'frame';
  if (TEST_SUMMARY.test(trimmed)) return 'test';
  if (EXCEPTION_LINE.test(trimmed)) return 'error';
  return 'other';
}

/** Runs of white space as one space, trimmed: how lines are compared (indentation and padding aside). */
export function normalizeLine(line: string): string {
  return line.replace(/\s+/g, ' ').trim();
}
