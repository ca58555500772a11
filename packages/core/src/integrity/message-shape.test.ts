import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { InvalidProviderOutputError } from '../errors/invalid-provider-output-error.js';
import { compactWith } from '../host/compact-with.js';
import { createPipelineProvider } from '../host/pipeline-provider.js';
import { fakeProvider } from '../test-support/fake-provider.js';
import { sampleConversation, text, toolCall, toolResult } from '../test-support/conversation.js';
import {
  MESSAGE_SHAPE_RULE_SETS,
  MESSAGE_SHAPE_RULES,
  checkMessageShape,
  findMessageShapeRegressions,
  hasMessageContent,
  turnOf,
  type MessageShapeRule,
} from './message-shape.js';

const rules = (messages: readonly Message[], set: 'openai' | 'strict' = 'strict'): MessageShapeRule[] =>
  checkMessageShape(messages, set).map((violation) => violation.rule);

const system = text('1', 'system', 'You are careful.');
const user = (id: string, body = 'Fix the test.') => text(id, 'user', body);
const assistant = (id: string, body = 'Done.') => text(id, 'assistant', body);

describe('checkMessageShape', () => {
  it('accepts a well-formed coding session under both rule sets', () => {
    expect(rules(sampleConversation())).toEqual([]);
    expect(rules(sampleConversation(), 'openai')).toEqual([]);
  });

  it('counts a call, its results and more assistant messages (a checkpoint too) as one assistant turn', () => {
    const checkpoint = assistant('cp', '[ollm checkpoint] read utils.py');
    const messages = [system, user('2'), checkpoint, toolCall('3', 'c1', 'ls'), toolResult('4', 'c1', 'a.py'), assistant('5'), user('6'), assistant('7')];
    expect(rules(messages)).toEqual([]);
    expect(messages.map(turnOf)).toEqual(['system', 'user', 'assistant', 'assistant', 'assistant', 'assistant', 'user', 'assistant']);
  });

  it('alternation: a user turn after a user turn, even with a system message between (strict only)', () => {
    const messages = [system, user('2'), user('3'), text('4', 'system', 'note'), user('5'), assistant('6')];
    expect(rules(messages)).toEqual(['system-first', 'alternation', 'alternation']);
    expect(rules(messages, 'openai')).toEqual([]);
  });

  it('user-first: the first message after the system prompt is an assistant message (strict only)', () => {
    expect(rules([system, assistant('2'), user('3')])).toEqual(['user-first']);
    expect(rules([system, assistant('2'), user('3')], 'openai')).toEqual([]);
    // Nothing but the system prompt, or nothing at all: nothing to break.
    expect(rules([system])).toEqual([]);
    expect(rules([])).toEqual([]);
  });

  it("Anthropic's user message of tool results belongs to the assistant turn; one with text as well is a user turn", () => {
    const results: Message = { id: 'r', role: 'user', parts: [{ type: 'tool-result', callId: 'c1', output: 'ok' }] };
    const mixed: Message = {
      id: 'm',
      role: 'user',
      parts: [
        { type: 'tool-result', callId: 'c2', output: 'ok' },
        { type: 'text', text: 'and now?' },
      ],
    };
    expect(turnOf(results)).toBe('assistant');
    expect(turnOf(mixed)).toBe('user');
    expect(rules([system, user('2'), toolCall('3', 'c1', 'ls'), results, assistant('4'), user('5'), toolCall('6', 'c2', 'ls'), mixed, assistant('7')])).toEqual(
      [],
    );
  });

  it('not-empty: no parts, blank text, or reasoning alone; an empty tool output or a file is content', () => {
    const reasoningOnly: Message = { id: 'r', role: 'assistant', parts: [{ type: 'reasoning', text: 'hmm' }] };
    const none: Message = { id: 'n', role: 'assistant', parts: [] };
    const blank = assistant('b', ' \n ');
    expect([reasoningOnly, none, blank].map(hasMessageContent)).toEqual([false, false, false]);
    expect(hasMessageContent(toolResult('t', 'c1', ''))).toBe(true);
    expect(hasMessageContent({ id: 'f', role: 'user', parts: [{ type: 'file', mediaType: 'image/png', uri: 'file:///a.png' }] })).toBe(true);
    expect(rules([system, user('2'), blank], 'openai')).toEqual(['not-empty']);
  });

  it('tool-results-follow-call: a result away from its call, a call left unanswered before the next message', () => {
    const call = toolCall('3', 'c1', 'ls');
    const result = toolResult('4', 'c1', 'a.py');
    expect(rules([system, user('2'), call, assistant('5'), result, user('6')], 'openai')).toEqual([
      'tool-results-follow-call', // c1 unanswered when message 3 came
      'tool-results-follow-call', // its result, not right after the call
    ]);
    // Parallel calls answered in any order, by several tool messages.
    const parallel: Message = {
      id: 'p',
      role: 'assistant',
      parts: [
        { type: 'tool-call', callId: 'a', name: 'bash', input: {} },
        { type: 'tool-call', callId: 'b', name: 'bash', input: {} },
      ],
    };
    expect(rules([user('2'), parallel, toolResult('rb', 'b', ''), toolResult('ra', 'a', ''), assistant('5')])).toEqual([]);
    // The last assistant message's calls may still be running, also when some results are in.
    expect(rules([user('2'), parallel])).toEqual([]);
    expect(rules([user('2'), parallel, toolResult('ra', 'a', '')])).toEqual([]);
    // A duplicate result is not right after its call either.
    expect(rules([user('2'), call, result, toolResult('again', 'c1', 'a.py')])).toEqual(['tool-results-follow-call']);
  });

  it('names every rule in a rule set, and strict holds all of openai', () => {
    expect(new Set(MESSAGE_SHAPE_RULE_SETS.strict)).toEqual(new Set(Object.keys(MESSAGE_SHAPE_RULES)));
    for (const rule of MESSAGE_SHAPE_RULE_SETS.openai) expect(MESSAGE_SHAPE_RULE_SETS.strict).toContain(rule);
  });
});

describe('findMessageShapeRegressions', () => {
  it("tolerates the input's own faults: only a rule broken more often than in the input counts", () => {
    const input = [system, user('2'), user('3'), assistant('4'), user('5'), assistant('6')];
    // Same count of user runs (one), in another place: no regression.
    expect(findMessageShapeRegressions(input, [system, user('2'), assistant('4'), user('3'), user('5'), assistant('6')])).toEqual([]);
    const worse = findMessageShapeRegressions(input, [system, user('2'), user('3'), user('5'), assistant('6')]);
    expect(worse.map((regression) => [regression.rule, regression.inputCount, regression.outputCount])).toEqual([['alternation', 1, 2]]);
  });
});

describe('the host checks the shape it is told', () => {
  const dropsFirstTurn = () => fakeProvider('drops-turn', (messages) => messages.filter((message) => !['3', '4', '5'].includes(message.id)));
  // Folds the first user message and puts a summary in its place.
  const checkpointFirst = () =>
    fakeProvider(
      'checkpoint-first',
      (messages) => {
        const [head, ...rest] = messages;
        return [head!, assistant('cp', 'Summary.'), ...rest.filter((message) => message.role !== 'user' || message.id === '6')];
      },
      { folded: [{ messageId: '2', reason: 'test' }] },
    );

  it('openai by default: a user run is accepted; strict rejects it with rule message-shape', async () => {
    const input = sampleConversation();
    await expect(compactWith(dropsFirstTurn(), input)).resolves.toBeDefined();
    const error = await compactWith(dropsFirstTurn(), input, { shape: 'strict' }).catch((caught: unknown) => caught);
    expect(InvalidProviderOutputError.isInstance(error) && error.rule).toBe('message-shape');
    expect((error as Error).message).toMatch(/strict rule "alternation"/);
  });

  it('strict rejects an assistant message first, in a pipeline stage too', async () => {
    const input = sampleConversation();
    await expect(compactWith(createPipelineProvider([checkpointFirst()]), input)).resolves.toBeDefined();
    const error = await compactWith(createPipelineProvider([checkpointFirst()]), input, { shape: 'strict' }).catch((caught: unknown) => caught);
    expect(InvalidProviderOutputError.isInstance(error) && error.provider).toBe('checkpoint-first');
    expect((error as InvalidProviderOutputError).detail).toMatch(/strict rule "user-first"/);
  });

  it("never rejects a provider for its input's faults", async () => {
    const input = [system, user('2'), user('3'), toolCall('4', 'c1', 'cat a.py'), toolResult('5', 'c1', 'x = 1\n'.repeat(200)), assistant('6')];
    const identity = fakeProvider('identity', (messages) => messages);
    await expect(compactWith(identity, input, { shape: 'strict' })).resolves.toBeDefined();
  });

  it('refuses a shape it does not know', async () => {
    const error = await compactWith(
      fakeProvider('x', (messages) => messages),
      sampleConversation(),
      { shape: 'gemma' as never },
    ).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error) && error.argument).toBe('shape');
  });
});
