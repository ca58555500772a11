import { computeSourceDigest } from '@ollm/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTranscript } from './parse-transcript.js';
import { readTranscript } from './read-transcript.js';
import { serializeTranscript } from './serialize-transcript.js';
import { fixture } from './test-support/fixture-paths.js';

const text = fc.string({ unit: 'grapheme', maxLength: 40 });
const identifier = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);

/** A well-formed OpenAI conversation: turns of user text, assistant text, or parallel tool calls with their results. */
const openaiConversation = fc
  .tuple(
    fc.option(text, { nil: undefined }),
    fc.array(
      fc.oneof(
        fc.record({ kind: fc.constant('user' as const), content: text, name: fc.option(identifier, { nil: undefined }) }),
        fc.record({ kind: fc.constant('assistant' as const), content: fc.option(text, { nil: null }) }),
        fc.record({
          kind: fc.constant('tools' as const),
          content: fc.option(text, { nil: null }),
          calls: fc.array(fc.record({ name: identifier, input: fc.jsonValue({ maxDepth: 2 }), output: text, named: fc.boolean() }), {
            minLength: 1,
            maxLength: 3,
          }),
        }),
      ),
      { maxLength: 12 },
    ),
    fc.boolean(),
  )
  .map(([system, turns, wrapped]) => {
    const messages: Record<string, unknown>[] = system === undefined ? [] : [{ role: 'system', content: system }];
    let next = 0;
    for (const turn of turns) {
      if (turn.kind === 'user') messages.push({ role: 'user', content: turn.content, ...(turn.name ? { name: turn.name } : {}) });
      else if (turn.kind === 'assistant') messages.push({ role: 'assistant', content: turn.content });
      else {
        const ids = turn.calls.map(() => `call_${(next += 1)}`);
        messages.push({
          role: 'assistant',
          content: turn.content,
          tool_calls: turn.calls.map((call, index) => ({
            id: ids[index],
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.input) },
          })),
        });
        turn.calls.forEach((call, index) =>
          messages.push({ role: 'tool', tool_call_id: ids[index], content: call.output, ...(call.named ? { name: call.name } : {}) }),
        );
      }
    }
    return wrapped ? { model: 'gpt-4o', messages } : messages;
  });

describe('stability', () => {
  it('serialize(parse(x)) is stable and deep-equal to x for generated OpenAI conversations', () => {
    fc.assert(
      fc.property(openaiConversation, fc.constantFrom('', '  ', '\t'), (document, indent) => {
        const source = JSON.stringify(document, null, indent);
        const first = parseTranscript(source, { file: 'generated.json', format: 'openai' });
        const written = serializeTranscript(first);
        expect(JSON.parse(written)).toEqual(document);
        const second = parseTranscript(written, { file: 'generated.json' });
        expect(second.conversations).toEqual(first.conversations);
        expect(serializeTranscript(second)).toBe(written);
      }),
      { numRuns: 150 },
    );
  });

  it.each([
    'swe-agent-django/django__django-11848.traj.json',
    'tau-bench-airline/gpt-4o-airline.sample.json',
    'formats/anthropic.json',
    'formats/gptme/conversation.jsonl',
  ])('the source digest of %s is identical when the file is read twice', async (path) => {
    const first = await readTranscript(fixture(path));
    const second = await readTranscript(fixture(path));
    const digests = (transcript: typeof first): string[] => transcript.conversations.map((conversation) => computeSourceDigest(conversation.messages));
    expect(digests(second)).toEqual(digests(first));
    expect(digests(first)[0]).toMatch(/^[0-9a-f]{64}$/);
    // And a written-then-read copy carries the same content.
    const reread = parseTranscript(serializeTranscript(first), { file: path });
    expect(digests(reread)).toEqual(digests(first));
  });
});
