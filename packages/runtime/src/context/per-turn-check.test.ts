import { createTokenizer, TokenCounter, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { ProviderRegistry } from '../registry/provider-registry.js';
import { ContextManager } from './context-manager.js';

/** A counter that records every message it is asked to count. */
function spyingCounter(): { tokens: TokenCounter; counted: Message[] } {
  const tokens = new TokenCounter(createTokenizer('o200k_base'));
  const counted: Message[] = [];
  const countMessage = tokens.countMessage.bind(tokens);
  tokens.countMessage = (message: Message) => {
    counted.push(message);
    return countMessage(message);
  };
  return { tokens, counted };
}

describe('the per-turn check', () => {
  it('looks at the new message only, not the whole active context', async () => {
    const { tokens, counted } = spyingCounter();
    const manager = new ContextManager({ contextSize: 10_000_000, systemPrompt: 'You are terse.', tokens, registry: new ProviderRegistry() });
    manager.setGoal('keep the parser fast');
    for (let index = 0; index < 5_000; index += 1)
      manager.addMessage({ role: index % 2 === 0 ? 'user' : 'assistant', parts: [{ type: 'text', text: `message ${index}` }] });
    await manager.maybeCompact();
    manager.fitsWindow();
    const latest = manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'one more' }] });
    counted.length = 0;
    await manager.maybeCompact();
    manager.fitsWindow();
    manager.budget();
    // The history append counted the new message when it was added; the check itself may count it
    // once more (its first sight of it) and nothing older.
    const looked = new Set(counted.map((message) => message.id));
    looked.delete('ollm-system');
    expect([...looked]).toEqual([latest.id]);
  });
});
