import { describe, expect, it } from 'vitest';
import { findToolPairingProblem, TokenCounter, createTokenizer } from '@ollm/core';
import { repositoryConversation } from '../test-fixtures.js';
import { reasonKind } from './pinned-overflow-workload.js';
import { scaledConversation } from './scaled-conversation.js';

describe('scaledConversation', () => {
  it('repeats the turns with new ids and texts until it holds the tokens asked for', async () => {
    const source = await repositoryConversation('django__django-11999');
    const sourceTokens = new TokenCounter(createTokenizer('o200k_base')).countMessages(source.messages);
    const scaled = scaledConversation([source], sourceTokens * 2.5);
    expect(scaled.tokens).toBeGreaterThanOrEqual(sourceTokens * 2.5);
    expect(new TokenCounter(createTokenizer('o200k_base')).countMessages(scaled.messages)).toBe(scaled.tokens);
    expect(scaled.messages.slice(0, 2).map((message) => message.role)).toEqual(['system', 'user']);
    expect(new Set(scaled.messages.map((message) => message.id)).size).toBe(scaled.messages.length);
    expect(findToolPairingProblem(scaled.messages, scaled.messages)).toBeUndefined();
    // No two copies of a tool result carry the same text.
    const outputs = scaled.messages.flatMap((message) => message.parts.flatMap((part) => (part.type === 'tool-result' ? [part.output] : [])));
    expect(new Set(outputs).size).toBe(outputs.length);
    expect(scaled.messages.some((message) => message.pinned)).toBe(false);
  });
});

describe('reasonKind', () => {
  it('keeps the words of a skip reason and drops its figures', () => {
    expect(reasonKind('not needed: the conversation holds 120 tokens, under the trigger of 900')).toBe('not needed');
    expect(reasonKind('backing off: the last compaction left 9000 tokens')).toBe('backing off');
    expect(reasonKind('the result was not smaller than its input (fold)')).toBe('the result was not smaller than its input');
  });
});
