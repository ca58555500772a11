import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TokenCounter, checkpointOf, compactWith, createTokenizer, isCheckpointMessage, messageText, type Message } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import codeAware from '@ollm/plugin-code-aware';
import mask from '@ollm/plugin-mask';
import trim from '@ollm/plugin-trim';
import { createGoalAwareProvider } from './index.js';
import { buildConversation } from './test-support/build-conversation.js';
import { createModel } from './test-support/fake-models.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
let server: FakeModelServer;
beforeAll(async () => {
  // Re-compressions (aging) come back longer than what they were given; everything else as usual.
  server = await startFakeModelServer({
    reply: (request) => {
      const text = messageText(request.messages.at(-1)!);
      return text.includes('Re-compress this earlier checkpoint') ? `${'The work went on with many details. '.repeat(120)}` : undefined;
    },
  });
});
afterAll(() => server.close());

/** A conversation compacted once by goal-aware: it holds one level-3 checkpoint. */
async function withCheckpoint(summaryMaxTokens = 1200): Promise<Message[]> {
  const model = createModel(server, 'ollama');
  const result = await compactWith(createGoalAwareProvider({ preserveRecent: 400, summaryMaxTokens }), buildConversation(10, 'first'), {
    config: { limit: 3000 },
    context: { model },
  });
  expect(result.messages.some(isCheckpointMessage)).toBe(true);
  return [...result.messages];
}

describe('checkpoints are protected from rule stages; only goal-aware ages them, and aging never grows one', () => {
  it('trim, mask and code-aware leave a checkpoint byte-identical, even at a tight limit', async () => {
    const made = await withCheckpoint();
    // And one with long prose and a code block, which trim and code-aware would otherwise shorten.
    const prose = Array.from({ length: 60 }, (_, index) => `Step ${index} went through the parser and the retry layer without surprises.`).join(' ');
    const code = ['```python', ...Array.from({ length: 40 }, (_, index) => `def helper_${index}(value):\n    return value + ${index}`), '```'].join('\n');
    const handMade: Message = {
      id: 'hand-made-checkpoint',
      role: 'assistant',
      parts: [{ type: 'text', text: `[ollm checkpoint · level 3]\n${prose}\n${code}` }],
      metadata: {
        checkpoint: {
          id: 'cp-hand',
          level: 3,
          range: 'Messages 2-9',
          summary: prose,
          createdAt: '2026-01-01T00:00:00Z',
          originalTokens: 5000,
          currentTokens: 900,
          compressionCount: 1,
        },
      },
    };
    const messages = [made[0]!, made[1]!, handMade, ...made.slice(2)];
    const before = messages.filter(isCheckpointMessage);
    for (const provider of [trim, mask, codeAware]) {
      const result = await compactWith(provider, messages, { config: { limit: Math.floor(tokens.countMessages(messages) / 10) } });
      expect(result.messages.filter(isCheckpointMessage), provider.name).toEqual(before);
    }
  });

  it('keeps the level moving and the checkpoint no larger when the model re-compresses it longer', async () => {
    const model = createModel(server, 'ollama');
    // A small checkpoint (made with a 120-token target) ages to level 2, whose target is 600: the
    // model's long reply, cut to 600, would be larger than the checkpoint it replaces.
    const first = await withCheckpoint(120);
    const old = first.find(isCheckpointMessage)!;
    const next = await compactWith(createGoalAwareProvider({ preserveRecent: 400 }), [...first, ...buildConversation(10, 'second').slice(1)], {
      config: { limit: 3000 },
      context: { model },
    });
    const aged = next.messages.find((message) => message.id === old.id)!;
    expect(checkpointOf(aged)!.level).toBeLessThan(checkpointOf(old)!.level);
    expect(tokens.countMessage(aged)).toBeLessThanOrEqual(tokens.countMessage(old) + 2);
    expect(next.limitations.join('\n')).toMatch(/re-compression of checkpoint .* was not smaller; the summary was cut/);
  });
});
