import { describe, expect, it } from 'vitest';
import { TokenCounter, createTokenizer } from '@ollm/core';
import { repositoryConversation } from '../test-fixtures.js';
import { uncachedMessageTokens } from './uncached-count.js';

describe('uncachedMessageTokens', () => {
  it("counts every message of a trajectory exactly as core's TokenCounter does", async () => {
    const { messages } = await repositoryConversation('django__django-11999');
    const tokenizer = createTokenizer('o200k_base');
    const counter = new TokenCounter(tokenizer);
    expect(messages.map((message) => uncachedMessageTokens(message, tokenizer))).toEqual(messages.map((message) => counter.countMessage(message)));
    const named = { ...messages[1]!, id: 'named', name: 'reviewer' };
    expect(uncachedMessageTokens(named, tokenizer)).toBe(counter.countMessage(named));
  });
});
