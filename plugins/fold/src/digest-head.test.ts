import { compactWith, createTokenizer, messageText, TokenCounter, type Message } from '@ollm/core';
import { describe, expect, it } from 'vitest';
import { createFoldProvider } from './index.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));

/** A short tool-using chat: the weather of two cities, then a question about it. */
const messages: Message[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is the weather in Paris and Lyon?' }] },
  { id: 'a1', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c1', name: 'weather', input: { cities: ['Paris', 'Lyon'] } }] },
  { id: 't1', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: 'Paris: 18°C and cloudy.\nLyon: 21°C and clear.' }] },
  {
    id: 'a2',
    role: 'assistant',
    parts: [{ type: 'text', text: 'Paris: 18°C and cloudy. Lyon: 21°C and clear. Both are mild for the season, and no rain is expected before the weekend.' }],
  },
  { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'And tomorrow?' }] },
  { id: 'a3', role: 'assistant', parts: [{ type: 'text', text: 'Tomorrow: Paris 20°C, Lyon 23°C, both sunny.' }] },
  { id: 'u3', role: 'user', parts: [{ type: 'text', text: 'Thanks. Which is warmer?' }] },
];

describe('a digest on a short conversation', () => {
  it.each([0.8, 0.6, 0.5])('at %s of its size: every cut has a reference, and no digest promises lines it does not hold', async (ratio) => {
    const limit = Math.floor(tokens.countMessages(messages) * ratio);
    const result = await compactWith(createFoldProvider(), messages, { config: { limit }, context: { tokens } });
    const digests = result.messages.filter((message) => message.role === 'assistant' && messageText(message).startsWith('[ollm fold'));
    expect(digests.length).toBeGreaterThan(0);
    for (const digest of digests) {
      const lines = messageText(digest).split('\n');
      expect(lines[0]).toMatch(/^\[ollm fold [0-9a-f]{12}\]/);
      if (lines[0]!.endsWith('verbatim:')) expect(lines.length).toBeGreaterThan(1);
    }
    expect(result.stats.tokensAfter).toBeLessThanOrEqual(limit);
  });
});
