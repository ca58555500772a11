import { describe, expect, it } from 'vitest';
import { compactWith, createTokenizer, TokenCounter, type Message } from '@ollm/core';
import fold from './index.js';

/** A chat that folds its own output again every turn once over the limit, as a proxy or an agent host does. */
describe('fold on its own output', () => {
  it('never returns more tokens than it was given, however often a conversation is folded again', async () => {
    const tokens = new TokenCounter(createTokenizer('o200k_base'));
    let messages: Message[] = [{ id: 's', role: 'system', parts: [{ type: 'text', text: 'You are a careful coding agent.' }] }];
    let folds = 0;
    for (let turn = 0; turn < 130; turn += 1) {
      messages.push({
        id: `u${turn}`,
        role: 'user',
        parts: [{ type: 'text', text: `Turn ${turn}: what does handler${turn}_3 in src/module-${turn % 17}.ts return for 2?` }],
      });
      if (turn % 2 === 0) {
        messages.push({
          id: `a${turn}`,
          role: 'assistant',
          parts: [{ type: 'tool-call', callId: `c${turn}`, name: 'read_file', input: { path: `src/module-${turn % 17}.ts` } }],
        });
        const lines = [`// src/module-${turn % 17}.ts (read at turn ${turn})`];
        for (let line = 0; line < 24; line += 1)
          lines.push(`export function handler${turn}_${line}(input: number): number { return input * ${line + turn} + ${line}; }`);
        messages.push({ id: `t${turn}`, role: 'tool', parts: [{ type: 'tool-result', callId: `c${turn}`, name: 'read_file', output: lines.join('\n') }] });
      }
      messages.push({ id: `r${turn}`, role: 'assistant', parts: [{ type: 'text', text: `It returns ${2 * (turn + 3) + 3}.` }] });
      if (tokens.countMessages(messages) <= 3896) continue;
      // compactWith validates the output: a larger one is an InvalidProviderOutputError ("not-larger").
      const result = await compactWith(fold, messages, { config: { limit: 3896 }, context: { tokens }, shape: 'strict' });
      expect(result.stats.tokensAfter).toBeLessThanOrEqual(result.stats.tokensBefore);
      messages = [...result.messages];
      folds += 1;
    }
    expect(folds).toBeGreaterThan(40);
  });
});
