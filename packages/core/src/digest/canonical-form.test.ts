import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import { canonicalJson, canonicalMessage, canonicalPart } from './canonical-form.js';

/** The recursive form canonicalJson had until it was made iterative: every output must stay the same. */
function recursiveCanonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') {
    return value === undefined ? 'null' : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => recursiveCanonicalJson(item)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${recursiveCanonicalJson(member)}`).join(',')}}`;
}

describe('canonicalJson', () => {
  it('writes what the recursive form wrote, for any JSON-like value', () => {
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withSparseArray: true, withObjectString: false, withBigInt: false }), (value) => {
        expect(canonicalJson(value)).toBe(recursiveCanonicalJson(value));
      }),
      { numRuns: 500 },
    );
    expect(canonicalJson(JSON.parse('{"__proto__": {"b": [1, {"a": null}]}, "constructor": 1}'))).toBe('{"__proto__":{"b":[1,{"a":null}]},"constructor":1}');
  });

  it('writes a value nested 100,000 deep (the recursive form overflowed the call stack)', () => {
    const depth = 100_000;
    const text = '{"a":['.repeat(depth) + '1' + ']}'.repeat(depth);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });
});

/** The canonical form as specified: canonicalJson of role, name, pinned, timestamp and each part's fields. */
function specifiedCanonicalMessage(message: Message): string {
  return canonicalJson({
    role: message.role,
    name: message.name,
    pinned: message.pinned === true,
    timestamp: message.timestamp,
    parts: message.parts.map(canonicalPart),
  });
}

describe('canonicalMessage', () => {
  // Strings with quotes, escapes, lone surrogates and non-ASCII; and values of other types where a string belongs.
  const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', '"', '\\', '\u2028', '\ud800', 'a\nb'));
  const odd = fc.oneof(fc.constant(undefined), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string(), { maxLength: 2 }));
  const maybe = (value: fc.Arbitrary<unknown>) => fc.oneof(value, odd);
  const part = fc.oneof(
    fc.record({ type: fc.constantFrom('text', 'reasoning'), text: maybe(text) }),
    fc.record(
      {
        type: fc.constant('tool-call'),
        callId: maybe(text),
        name: maybe(text),
        input: fc.anything({ maxDepth: 2 }),
        rawInput: fc.option(text, { nil: undefined }),
      },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      { type: fc.constant('tool-result'), callId: maybe(text), name: maybe(text), output: maybe(text), isError: fc.option(fc.boolean(), { nil: undefined }) },
      { requiredKeys: ['type'] },
    ),
    fc.record(
      {
        type: fc.constant('file'),
        mediaType: text,
        uri: fc.option(text, { nil: undefined }),
        data: fc.option(text, { nil: undefined }),
        name: fc.option(text, { nil: undefined }),
      },
      { requiredKeys: ['type', 'mediaType'] },
    ),
  );
  const message = fc.record(
    {
      id: fc.string(),
      role: maybe(fc.constantFrom('system', 'user', 'assistant', 'tool')),
      name: maybe(text),
      pinned: fc.option(fc.oneof(fc.boolean(), fc.integer()), { nil: undefined }),
      timestamp: maybe(text),
      parts: fc.array(part, { maxLength: 5 }),
      metadata: fc.option(fc.dictionary(fc.string(), fc.string()), { nil: undefined }),
    },
    { requiredKeys: ['id', 'role', 'parts'] },
  );

  it('is canonicalJson of the message as specified, for any message, of the usual shape or not', () => {
    fc.assert(
      fc.property(message, (value) => {
        const written = canonicalMessage(value as unknown as Message);
        expect(written).toBe(specifiedCanonicalMessage(value as unknown as Message));
        expect(() => JSON.parse(written) as unknown).not.toThrow();
      }),
      { numRuns: 2_000 },
    );
  });

  it('leaves out what is undefined and keeps the keys in order', () => {
    const message: Message = {
      id: 'm1',
      role: 'assistant',
      parts: [
        { type: 'text', text: 'Looking.' },
        { type: 'tool-call', callId: 'c1', name: 'bash', input: { command: 'ls', cwd: '/' } },
        { type: 'tool-result', callId: 'c1', output: 'a.py\n' },
      ],
    };
    expect(canonicalMessage(message)).toBe(
      '{"parts":[{"text":"Looking.","type":"text"},{"callId":"c1","input":"{\\"command\\":\\"ls\\",\\"cwd\\":\\"/\\"}","name":"bash","type":"tool-call"},{"callId":"c1","isError":false,"output":"a.py\\n","type":"tool-result"}],"pinned":false,"role":"assistant"}',
    );
  });
});
