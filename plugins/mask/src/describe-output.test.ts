import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countLines, describeOutput, shorten } from './describe-output.js';
import { describeCall } from './describe-call.js';

describe('describeOutput', () => {
  it('gives the return code and first content line of SWE-agent outputs, the last for failures', () => {
    expect(describeOutput('<returncode>0</returncode>\n<output>\n\n/testbed/a.py:3: x = 1\n/testbed/b.py:4: y\n</output>')).toBe(
      'returncode 0; first line: "/testbed/a.py:3: x = 1"',
    );
    expect(describeOutput('<returncode>1</returncode>\n<output>\n\nTraceback (most recent call last):\n  File "x.py"\nAttributeError: no foo\n</output>')).toBe(
      'returncode 1; last line: "AttributeError: no foo"',
    );
    expect(describeOutput('<returncode>0</returncode>\n<output>\nTraceback (most recent call last):\nValueError: bad</output>')).toBe(
      'returncode 0; last line: "ValueError: bad"',
    );
    expect(describeOutput('<returncode>2</returncode>\n<output>\nno such file\n</output>')).toBe('returncode 2; first line: "no such file"');
    expect(describeOutput('<returncode>0</returncode>\n<output>\n</output>')).toBe('returncode 0; no output');
    expect(
      describeOutput(
        '<returncode>0</returncode>\n<warning>\nThe output of your last command was too long.\n</warning><output_head>\nimport copy\n</output_head>',
      ),
    ).toBe('returncode 0; too long, head and tail shown; first line: "import copy"');
  });

  it('describes the shape of JSON outputs', () => {
    expect(describeOutput('{"name": {"first_name": "Mia"}, "email": "m@example.com", "dob": "1990-04-05"}')).toBe('JSON object with 3 keys: name, email, dob');
    expect(describeOutput('[{"flight": "HAT001"}, {"flight": "HAT002"}]')).toBe('JSON array of 2 items');
    expect(describeOutput('{not json')).toBe('first line: "{not json"');
  });

  it('falls back to the first non-empty line, cut to one short line', () => {
    expect(describeOutput('\n\n  Error: user not found  \nmore')).toBe('first line: "Error: user not found"');
    expect(describeOutput('calling the API\nError: user not found', true)).toBe('last line: "Error: user not found"');
    expect(describeOutput('   \n')).toBe('blank output');
    const long = describeOutput('x'.repeat(500));
    expect(long.length).toBeLessThan(110);
    expect(long).toContain('…');
  });

  it('counts lines without a phantom last line', () => {
    expect(countLines('')).toBe(0);
    expect(countLines('a')).toBe(1);
    expect(countLines('a\nb\n')).toBe(2);
    expect(shorten('a\n  b', 10)).toBe('a ⏎ b');
  });
});

describe('describeCall', () => {
  it('shows a shell command, else compact JSON arguments', () => {
    expect(describeCall('bash', { type: 'tool-call', callId: 'c', name: 'bash', input: { command: 'ls -la /testbed' } })).toBe('bash: ls -la /testbed');
    expect(describeCall(undefined, { type: 'tool-call', callId: 'c', name: 'get_user_details', input: { user_id: 'mia_li_3668' } })).toBe(
      'get_user_details {"user_id":"mia_li_3668"}',
    );
    expect(describeCall('search', { type: 'tool-call', callId: 'c', name: 'search', input: undefined, rawInput: 'not json' })).toBe('search not json');
    expect(describeCall('bash', undefined)).toBe('bash');
    expect(
      describeCall('bash', { type: 'tool-call', callId: 'c', name: 'bash', input: { command: `cat > a.py <<EOF\n${'x = 1\n'.repeat(100)}EOF` } }).length,
    ).toBeLessThan(90);
  });
});

describe('shorten', () => {
  /** The definition: collapse all whitespace of the whole text, then cut. */
  const reference = (text: string, limit: number): string => {
    const oneLine = text
      .replace(/\s*\n\s*/g, ' ⏎ ')
      .replace(/\s+/g, ' ')
      .trim();
    return oneLine.length <= limit ? oneLine : `${oneLine.slice(0, limit - 1)}…`;
  };

  it('gives what collapsing the whole text gives, for long texts it reads only the head of', () => {
    const piece = fc.constantFrom('a', 'bc', ' ', '  ', '\n', ' \n ', '\t', 'x\n\ny', '⏎', '…');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 400 }), fc.integer({ min: 1, max: 40 }), (pieces, limit) => {
        const text = pieces.join('');
        expect(shorten(text, limit)).toBe(reference(text, limit));
      }),
      { numRuns: 500 },
    );
  });
});
