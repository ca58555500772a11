import type { ToolCallPart } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { describeToolCall, isEmptyLine } from './tool-result-placeholder.js';

function call(input: unknown, rawInput?: string): ToolCallPart {
  return { type: 'tool-call', callId: 'c1', name: 'tool', input, ...(rawInput !== undefined ? { rawInput } : {}) };
}

describe('describeToolCall', () => {
  it('names the command of a shell call', () => {
    expect(describeToolCall(call({ command: 'grep -rn DurationField django/' }))).toBe('grep -rn DurationField django/');
  });

  it('adds the file an editor command worked on', () => {
    expect(describeToolCall(call({ command: 'view', path: '/testbed/django/forms/fields.py' }))).toBe('view /testbed/django/forms/fields.py');
    expect(describeToolCall(call({ path: 'README.md' }))).toBe('README.md');
  });

  it('falls back to the raw input, then to JSON', () => {
    expect(describeToolCall(call({ flight: 'HAT001' }, '{"flight": "HAT001"}'))).toBe('{"flight": "HAT001"}');
    expect(describeToolCall(call({ flight: 'HAT001' }))).toBe('{"flight":"HAT001"}');
    expect(describeToolCall(undefined)).toBeUndefined();
  });
});

describe('isEmptyLine', () => {
  it('skips blank lines and bare markup, on any length of whitespace', () => {
    expect(isEmptyLine('')).toBe(true);
    expect(isEmptyLine('   \t ')).toBe(true);
    expect(isEmptyLine('  <output>  ')).toBe(true);
    expect(isEmptyLine('</output>')).toBe(true);
    expect(isEmptyLine('<output> x')).toBe(false);
    expect(isEmptyLine(`${' '.repeat(100_000)}x`)).toBe(false);
    expect(isEmptyLine(' '.repeat(100_000))).toBe(true);
  });
});
