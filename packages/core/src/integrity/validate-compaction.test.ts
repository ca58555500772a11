import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import { withParts } from '../messages/message-helpers.js';
import type { CompactionResult } from '../provider/compaction-result.js';
import { InvalidProviderOutputError } from '../errors/invalid-provider-output-error.js';
import { createTokenizer } from '../tokens/bpe-tokenizer.js';
import { TokenCounter } from '../tokens/token-counter.js';
import { resultOf, sampleConversation, text, toolCall, toolResult } from '../test-support/conversation.js';
import { INTEGRITY_RULES, type IntegrityRule } from './integrity-rule.js';
import { findIntegrityViolations, validateCompaction } from './validate-compaction.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const input = sampleConversation();
const [system, firstUser, call1, result1, answer, secondUser, call2, result2] = input as [
  Message,
  Message,
  Message,
  Message,
  Message,
  Message,
  Message,
  Message,
];

function rulesBroken(output: readonly Message[], extra: Partial<CompactionResult> = {}, source: readonly Message[] = input): IntegrityRule[] {
  return findIntegrityViolations(source, resultOf(source, output, extra), tokens).map((violation) => violation.rule);
}

describe('findIntegrityViolations: each rule fires', () => {
  it('result-shape: coveredThrough outside the input, or messages not an array', () => {
    expect(rulesBroken(input, { coveredThrough: input.length })).toEqual(['result-shape']);
    expect(rulesBroken(input, { coveredThrough: -2 })).toEqual(['result-shape']);
    expect(rulesBroken(input, { messages: 'nope' as unknown as Message[] })).toEqual(['result-shape']);
  });

  it('result-shape: a provider that returns nothing is rejected, not a TypeError', () => {
    const violations = findIntegrityViolations(input, undefined as unknown as CompactionResult, tokens);
    expect(violations.map((violation) => violation.rule)).toEqual(['result-shape']);
    expect(rulesBroken([system, null as unknown as Message])).toEqual(['result-shape']);
    expect(rulesBroken([{ id: 'x', role: 'assistant' } as unknown as Message])).toEqual(['result-shape']);
  });

  it('unique-ids: duplicate id', () => {
    expect(rulesBroken([...input.slice(0, 5), withParts(answer, [{ type: 'text', text: 'x' }]), ...input.slice(5)])).toContain('unique-ids');
  });

  it('roles-intact: changed role', () => {
    expect(rulesBroken(input.map((message) => (message === answer ? { ...answer, role: 'user' as const } : message)))).toContain('roles-intact');
  });

  // The inserted messages below come with a truncated tool result, so only the role rule can fire.
  const shorter = input.map((message) => (message === result1 ? withParts(result1, [{ type: 'tool-result', callId: 'c1', output: 'cut' }]) : message));

  it('roles-intact: inserted tool message', () => {
    const inserted = toolResult('new', 'c1', 'fake output');
    // A second result for c1, away from its call, also breaks the shape every API needs.
    expect(rulesBroken([...shorter.slice(0, 5), inserted, ...shorter.slice(5)])).toEqual(['roles-intact', 'message-shape']);
  });

  it('roles-intact: inserted user message', () => {
    expect(rulesBroken([...shorter.slice(0, 5), text('new', 'user', 'Do it now.'), ...shorter.slice(5)])).toEqual(['roles-intact']);
  });

  it('roles-intact: inserted assistant message carrying a tool call', () => {
    expect(rulesBroken([...input, toolCall('new', 'c9', 'rm -rf /')])).toContain('roles-intact');
  });

  it('order-kept: reordering', () => {
    expect(rulesBroken([system, firstUser, call1, result1, secondUser, answer, call2, result2])).toEqual(['order-kept']);
  });

  it('timestamps-unchanged: changed timestamp', () => {
    expect(rulesBroken(input.map((message) => (message === answer ? { ...answer, timestamp: '2030-01-01T00:00:00Z' } : message)))).toEqual([
      'timestamps-unchanged',
    ]);
  });

  it('tool-pairing: orphan tool result (its call dropped)', () => {
    expect(rulesBroken([system, firstUser, result1, answer, secondUser, call2, result2])).toEqual(['tool-pairing']);
  });

  it('tool-pairing: lost result (the call kept, its result dropped)', () => {
    expect(rulesBroken([system, firstUser, call1, answer, secondUser, call2, result2])).toEqual(['tool-pairing']);
  });

  it('system-unchanged: removed system message', () => {
    expect(rulesBroken(input.slice(1))).toEqual(['system-unchanged']);
  });

  it('system-unchanged: edited system message', () => {
    expect(rulesBroken([withParts(system, [{ type: 'text', text: 'You are sloppy.' }]), ...input.slice(1)])).toEqual(['system-unchanged']);
  });

  it('user-unchanged: changed user message', () => {
    const edited = withParts(firstUser, [{ type: 'text', text: 'Please fix the test.' }]);
    expect(rulesBroken(input.map((message) => (message === firstUser ? edited : message)))).toEqual(['user-unchanged']);
  });

  it('user-unchanged: removed user message that was not declared folded', () => {
    expect(rulesBroken(input.filter((message) => message !== secondUser))).toEqual(['user-unchanged']);
  });

  it('user-unchanged: a declared folded user message still may not be edited', () => {
    const edited = withParts(firstUser, [{ type: 'text', text: 'shorter' }]);
    const output = input.map((message) => (message === firstUser ? edited : message));
    expect(rulesBroken(output, { folded: [{ messageId: firstUser.id, reason: 'quoted in checkpoint' }] })).toEqual(['user-unchanged']);
  });

  it('pinned-unchanged: edited pinned message', () => {
    const pinnedInput = input.map((message) => (message === answer ? { ...answer, pinned: true } : message));
    const edited = pinnedInput.map((message) => (message.id === answer.id ? withParts(message, [{ type: 'text', text: 'short' }]) : message));
    expect(rulesBroken(edited, {}, pinnedInput)).toEqual(['pinned-unchanged']);
    expect(
      rulesBroken(
        pinnedInput.filter((message) => message.id !== answer.id),
        {},
        pinnedInput,
      ),
    ).toEqual(['pinned-unchanged']);
  });

  it('not-larger: larger output', () => {
    const longer = withParts(answer, [{ type: 'text', text: `${'much longer answer '.repeat(50)}` }]);
    expect(rulesBroken(input.map((message) => (message === answer ? longer : message)))).toEqual(['not-larger']);
  });

  it('message-shape: the output breaks a shape rule more often than the input (openai by default, strict when asked)', () => {
    const empty = withParts(answer, [{ type: 'text', text: '  ' }]);
    expect(rulesBroken(input.map((message) => (message === answer ? empty : message)))).toEqual(['message-shape']);
    // Dropping the assistant turn between the two user messages: fine for openai, not for strict.
    const userRun = [system, firstUser, secondUser, call2, result2];
    expect(rulesBroken(userRun)).toEqual([]);
    const strict = findIntegrityViolations(input, resultOf(input, userRun), tokens, { shape: 'strict' });
    expect(strict.map((violation) => violation.rule)).toEqual(['message-shape']);
    expect(strict[0]!.detail).toMatch(/strict rule "alternation" is broken 1 time\(s\) in the output, 0 in the input/);
  });

  it('covers every rule in INTEGRITY_RULES', () => {
    // Keeps this file honest: a new rule needs a test above.
    expect(Object.keys(INTEGRITY_RULES).sort()).toEqual(
      [
        'message-shape',
        'not-larger',
        'order-kept',
        'pinned-unchanged',
        'result-shape',
        'roles-intact',
        'system-unchanged',
        'timestamps-unchanged',
        'tool-pairing',
        'unique-ids',
        'user-unchanged',
      ].sort(),
    );
  });
});

describe('findIntegrityViolations: valid edits pass', () => {
  it('keeping everything unchanged', () => {
    expect(rulesBroken(input)).toEqual([]);
  });

  it('truncated tool result text', () => {
    const truncated = withParts(result1, [{ type: 'tool-result', callId: 'c1', name: 'bash', output: '[output truncated; saved to removed/ab12.txt]' }]);
    expect(rulesBroken(input.map((message) => (message === result1 ? truncated : message)))).toEqual([]);
  });

  it('stripped reasoning', () => {
    const stripped = withParts(
      call1,
      call1.parts.filter((part) => part.type !== 'reasoning'),
    );
    expect(rulesBroken(input.map((message) => (message === call1 ? stripped : message)))).toEqual([]);
  });

  it('dropped assistant + tool pair together', () => {
    expect(rulesBroken([system, firstUser, answer, secondUser, call2, result2])).toEqual([]);
  });

  it('inserted assistant summary (and an inserted system note)', () => {
    const summary = text('summary-1', 'assistant', 'Summary: read utils.py; add() subtracted.');
    const note = text('note-1', 'system', 'Earlier turns were compacted.');
    expect(rulesBroken([system, note, firstUser, summary, answer, secondUser, call2, result2])).toEqual([]);
  });

  it('declared folded user message', () => {
    const summary = text('checkpoint-1', 'assistant', 'Checkpoint: the user asked to fix utils.py.');
    const output = [system, summary, answer, secondUser, call2, result2];
    expect(rulesBroken(output, { folded: [{ messageId: firstUser.id, reason: 'user budget exceeded' }] })).toEqual([]);
  });

  it('a call still waiting for its result (the last turn) may stay unanswered', () => {
    const pending = input.slice(0, 7);
    expect(rulesBroken(pending, {}, pending)).toEqual([]);
  });
});

describe('validateCompaction', () => {
  it('throws InvalidProviderOutputError naming provider and the first rule broken', () => {
    const thrown = (() => {
      try {
        validateCompaction('sloppy', input, resultOf(input, input.slice(1)), tokens);
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(InvalidProviderOutputError.isInstance(thrown)).toBe(true);
    const error = thrown as InvalidProviderOutputError;
    expect(error.provider).toBe('sloppy');
    expect(error.rule).toBe('system-unchanged');
    expect(error.message).toContain('"sloppy"');
    expect(error.message).toContain('system-unchanged');
  });

  it('returns quietly for a valid result', () => {
    expect(() => validateCompaction('fine', input, resultOf(input, input), tokens)).not.toThrow();
  });
});
