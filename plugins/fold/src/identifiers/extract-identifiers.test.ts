import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { listFixtureFiles, loadFixtureConversations } from '@ollm/provider-conformance';
import { IDENTIFIER_PATTERNS, MIN_IDENTIFIER_LENGTH, coveredNames, extractIdentifiers } from './extract-identifiers.js';
import { visibleText } from './visible-text.js';

describe('extractIdentifiers', () => {
  it('finds paths, snake_case, camelCase, PascalCase with an inner capital and error names, each once', () => {
    const text = [
      'File "/testbed/django/db/models/base.py", line 941, in _get_FIELD_display',
      'ValueError: get_next/get_previous cannot be used',
      'see utils.py and the helper parseLimit in QuerySet; QuerySet again',
    ].join('\n');
    const found = extractIdentifiers(text);
    expect(found.get('/testbed/django/db/models/base.py')).toBe('path');
    expect(found.get('_get_FIELD_display')).toBe('code');
    expect(found.get('ValueError')).toBe('error');
    expect(found.get('utils.py')).toBe('path');
    expect(found.get('parseLimit')).toBe('code');
    expect(found.get('QuerySet')).toBe('code');
    // Plain words and short names are not identifiers.
    expect(found.has('line')).toBe(false);
    expect(found.has('the')).toBe(false);
    expect([...found.keys()].filter((name) => name === 'QuerySet')).toHaveLength(1);
  });

  it('does not take URLs or dotted numbers for paths', () => {
    const found = extractIdentifiers('see https://example.com/a/b and version 1.2/3');
    expect([...found.keys()].some((name) => name.includes('//'))).toBe(false);
    expect(found.has('1.2/3')).toBe(false);
  });

  it('coveredNames: a longer path shows its tail and its head as whole tokens', () => {
    const covered = coveredNames(['/testbed/django/db/models/base.py', 'django/db/models/base.py', 'base.py', 'models.py']);
    expect(covered).toEqual(new Set(['django/db/models/base.py', 'base.py']));
  });
});

describe('extractIdentifiers on awkward text', () => {
  it('reads no names out of escapes (\\nExpected is not a camelCase name)', () => {
    const found = extractIdentifiers('print("\\nExpected result")\\nprint("\\nGenerated")');
    expect(found.has('nExpected')).toBe(false);
    expect(found.has('nGenerated')).toBe(false);
  });

  it('finds the path in a long run of path characters', () => {
    const found = extractIdentifiers(`${'.'.repeat(5_000)} see /testbed/app/lookup.py`);
    expect(found.get('/testbed/app/lookup.py')).toBe('path');
  });
});

describe('coveredNames', () => {
  /** The definition: another, longer name that is a path ends with `/name` or starts with `name/`. */
  const naive = (names: readonly string[]): Set<string> =>
    new Set(
      names.filter((name) =>
        names.some(
          (other) => other.includes('/') && other !== name && other.length > name.length && (other.endsWith(`/${name}`) || other.startsWith(`${name}/`)),
        ),
      ),
    );

  it('finds exactly the names a longer path shows whole, on any list of path-like names', () => {
    const segment = fc.constantFrom('testbed', 'django', 'db', 'models', 'base.py', 'a', '', '.', 'x.py');
    const name = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(fc.array(name, { maxLength: 12 }), (names) => {
        expect(coveredNames(names)).toEqual(naive(names));
      }),
      { numRuns: 500 },
    );
  });
});

/** Each pattern over the whole text, in order, as the names were read before runs: what the one pass must give. */
function namesPatternByPattern(text: string): [string, string][] {
  const found = new Map<string, string>();
  for (const { pattern, kind, name } of IDENTIFIER_PATTERNS) {
    for (const match of text.matchAll(pattern)) {
      const value = name(match);
      if (value !== undefined && value.length >= MIN_IDENTIFIER_LENGTH && !found.has(value)) found.set(value, kind);
    }
  }
  return [...found];
}

describe('extractIdentifiers reads runs as the patterns read the whole text', () => {
  it('gives the same names, kinds and order on every text of the real transcripts', async () => {
    const files = listFixtureFiles('all');
    expect(files.length).toBeGreaterThan(0);
    let texts = 0;
    for (const { messages } of (await Promise.all(files.map(loadFixtureConversations))).flat()) {
      for (const message of messages) {
        const text = visibleText(message);
        expect([...extractIdentifiers(text)]).toEqual(namesPatternByPattern(text));
        texts++;
      }
    }
    expect(texts).toBeGreaterThan(100);
  });

  it('gives the same names, kinds and order on any text', () => {
    // Every character the patterns treat apart, and some they never match.
    const alphabet = [...'aAzZbB09_-./\\":  \n\t,;()[]@éꙮ', 'Error', 'Exception', 'Warning', 'Failure', '.py', '.json', 'URL', 'Field', 'http://', '__'];
    const text = fc.array(fc.constantFrom(...alphabet), { maxLength: 80 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(text, (value) => {
        expect([...extractIdentifiers(value)]).toEqual(namesPatternByPattern(value));
      }),
      { numRuns: 5000 },
    );
  });
});
