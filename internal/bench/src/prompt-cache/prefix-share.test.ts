import { TokenCounter, createTokenizer } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { commonPrefixLength, promptSteps, renderPrompt } from './prefix-share.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));

describe('renderPrompt', () => {
  it('renders the tools, then each message with its role, text, calls and call id, in order', () => {
    const text = renderPrompt({
      tools: [{ name: 'bash' }],
      messages: [
        { role: 'system', content: 'rules' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1' }] },
        { role: 'tool', tool_call_id: 'c1', content: 'out' },
      ],
    });
    expect(text).toBe('<|tools|>[{"name":"bash"}]\n<|system|>rules\n<|assistant|><|calls|>[{"id":"c1"}]\n<|tool|>out<|id|>c1');
  });
});

describe('promptSteps', () => {
  it('counts the start each prompt shares with the one before, all of it when the prompt only grew', () => {
    const first = 'alpha beta gamma';
    const steps = promptSteps([first, `${first} delta`, 'alpha beta gamma delta other words', 'alpha beta gamma delta other words'], tokens);
    expect(steps[0]).toEqual({ tokens: tokens.countText(first), sharedTokens: 0 });
    expect(steps[1]!.sharedTokens).toBe(tokens.countText(first));
    expect(steps[2]!.sharedTokens).toBeGreaterThan(0);
    expect(steps[2]!.sharedTokens).toBeLessThan(steps[2]!.tokens);
    expect(steps[3]!.sharedTokens).toBe(steps[3]!.tokens);
  });

  it('finds the common prefix by character', () => {
    expect(commonPrefixLength('abcdef', 'abcxyz')).toBe(3);
    expect(commonPrefixLength('', 'abc')).toBe(0);
    expect(commonPrefixLength('abc', 'abc')).toBe(3);
  });
});
