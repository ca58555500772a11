import type { ToolCallPart } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { extractIdentifiers, holdsIdentifier, pathOf, wordKind } from './identifiers.js';
import { decodedArguments, searchableParts, withEscapesAsSpaces } from './searchable-parts.js';

const texts = (text: string, kind?: string) =>
  extractIdentifiers(text)
    .filter((identifier) => kind === undefined || identifier.kind === kind)
    .map((identifier) => identifier.text);

describe('identifier extraction', () => {
  it('reads file paths, and not prose with slashes, dotted names or URLs', () => {
    expect(
      texts(
        'Edit /testbed/django/db/models/base.py and tests/model_fields/tests.py, then run reproduce.py. ' +
          'See django/db/models/ (a folder), and/or django.db.models, https://code.djangoproject.com/ticket/30931 and 1/2.',
        'path',
      ),
    ).toEqual(['/testbed/django/db/models/base.py', 'tests/model_fields/tests.py', 'reproduce.py', 'django/db/models']);
    // The a/ and b/ of a git diff header, a trailing full stop, a leading ./
    expect(pathOf('a/django/forms/models.py')).toBe('django/forms/models.py');
    expect(pathOf('./setup.cfg.')).toBe('setup.cfg');
    expect(pathOf('self.name')).toBeUndefined();
    // Python attributes that look like file names: only with a `/` are they paths.
    expect(pathOf('unittest.mock.patch')).toBeUndefined();
    expect(pathOf('response.json')).toBeUndefined();
    expect(pathOf('fixtures/data.json')).toBe('fixtures/data.json');
    expect(pathOf('django/db')).toBeUndefined();
  });

  it('reads snake_case, camelCase and error type names, and no plain word', () => {
    expect(wordKind('get_FOO_display')).toBe('snake');
    expect(wordKind('SECRET_KEY')).toBe('snake');
    expect(wordKind('__init__')).toBe('snake');
    expect(wordKind('_meta')).toBe('snake');
    expect(wordKind('QuerySet')).toBe('camel');
    expect(wordKind('getElementById')).toBe('camel');
    expect(wordKind('URLField')).toBe('camel');
    expect(wordKind('ValueError')).toBe('error');
    expect(wordKind('OSError')).toBe('error');
    expect(wordKind('DeprecationWarning')).toBe('error');
    for (const plain of ['Field', 'value', 'TODO', 'Error', 'Exception', 'URLs', 'get_', '_x', '__']) expect(wordKind(plain)).toBeUndefined();
  });

  it('keeps words inside a path to the path, lists each identifier once in order, and reads no format string as a name', () => {
    const found = extractIdentifiers('In django/db/models/fields/__init__.py: ValueError from get_prep_value; get_prep_value again; "get_%s_display"');
    expect(found).toEqual([
      { kind: 'path', text: 'django/db/models/fields/__init__.py' },
      { kind: 'error', text: 'ValueError' },
      { kind: 'snake', text: 'get_prep_value' },
    ]);
  });

  it('matches an identifier as a whole token, a path also as the tail of a longer path', () => {
    expect(holdsIdentifier('self.get_foo()', 'get_foo')).toBe(true);
    expect(holdsIdentifier('self.get_foo_bar()', 'get_foo')).toBe(false);
    expect(holdsIdentifier('File "/testbed/django/db/models/base.py", line 3', 'django/db/models/base.py')).toBe(true);
    expect(holdsIdentifier('django/db/models/base.pyc', 'django/db/models/base.py')).toBe(false);
  });
});

describe('tool-call arguments decoded from their JSON', () => {
  const call: ToolCallPart = {
    type: 'tool-call',
    callId: 'c1',
    name: 'run_shell_command',
    input: { command: 'stale' },
    rawInput: JSON.stringify({ command: 'cat > /testbed/check_it.py << EOF\nget_value_list = fetch()\nprint("done")\nEOF', timeout: 30 }),
  };

  it('reads the string values of rawInput, decoded, without keys or the tool name', () => {
    const decoded = decodedArguments(call);
    expect(decoded).toBe('cat > /testbed/check_it.py << EOF\nget_value_list = fetch()\nprint("done")\nEOF');
    const identifiers = texts(decoded);
    expect(identifiers).toEqual(['/testbed/check_it.py', 'get_value_list']);
    // Read raw, the JSON escape `\n` glues an `n` to the next name: what decoding prevents.
    expect(texts(call.rawInput!)).toContain('nget_value_list');
    expect(texts(call.rawInput!)).not.toContain('get_value_list');
    expect(identifiers).not.toContain('run_shell_command');
  });

  it('falls back to input without rawInput, and to the raw text when it is not JSON', () => {
    expect(decodedArguments({ ...call, rawInput: undefined, input: { path: 'pkg/mod/a.py', lines: [1, 2], flags: ['keep_going'] } } as ToolCallPart)).toBe(
      'pkg/mod/a.py\nkeep_going',
    );
    expect(decodedArguments({ ...call, rawInput: 'ls -la some_dir' })).toBe('ls -la some_dir');
  });

  it('reads a literal backslash-n inside the agent’s code as a space', () => {
    expect(withEscapesAsSpaces('print("\\nGenerated with get_value")')).toBe('print("  Generated with get_value")');
    const parts = searchableParts([{ id: 'a', role: 'assistant', parts: [{ ...call, rawInput: JSON.stringify({ command: 'print("\\nget_thing")' }) }] }]);
    expect(texts(parts[0]!.text)).toEqual(['get_thing']);
    expect(parts[0]!.place).toBe('tool-call');
  });
});
