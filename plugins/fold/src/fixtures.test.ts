import { describe, expect, it } from 'vitest';
import { TokenCounter, checkMessageShape, compactWith, createTokenizer, renderMessage } from '@ollm/core';
import { listFixtureFiles, loadFixtureConversations } from '@ollm/provider-conformance';
import { createFoldProvider } from './index.js';
import { isIrreducible } from './test-support/irreducible.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));

/** The real transcripts: those the conformance package bundles, the repo's copies and `../shared/fixtures` when present. */
const files = listFixtureFiles('all');

describe('fold on real transcripts', () => {
  it.each([0.5, 0.25, 0.1])('reaches %s of every real transcript whose system and user messages fit, in the strict shape', async (share) => {
    expect(files.length).toBeGreaterThan(0);
    const conversations = (await Promise.all(files.map(loadFixtureConversations))).flat();
    for (const { label: name, messages } of conversations) {
      const limit = Math.floor(tokens.countMessages(messages) * share);
      const fixed = tokens.countMessages(messages.filter((message) => message.role === 'system' || message.role === 'user' || message.pinned));
      const result = await compactWith(createFoldProvider(), messages, { config: { limit }, context: { tokens } });
      // Over the limit only when nothing but references keeping user turns apart is left.
      if (fixed <= limit && result.stats.tokensAfter > limit) expect(isIrreducible(result.messages), name).toBe(true);
      // Strict shape, or broken no more than the transcript itself was (a run that ends on an unanswered call).
      expect(checkMessageShape(result.messages, 'strict').length, name).toBeLessThanOrEqual(checkMessageShape(messages, 'strict').length);
      // The task is kept word for word.
      const task = messages.find((message) => message.role === 'user')!;
      expect(result.messages.map(renderMessage)).toContain(renderMessage(task));
    }
  });

  it('is monotone on every real transcript: 10% never larger than 25%, 25% never larger than 50%', async () => {
    const conversations = (await Promise.all(files.map(loadFixtureConversations))).flat();
    for (const { label: name, messages } of conversations) {
      const total = tokens.countMessages(messages);
      const sizes: number[] = [];
      for (const share of [0.5, 0.25, 0.1]) {
        sizes.push(
          (await compactWith(createFoldProvider(), messages, { config: { limit: Math.floor(total * share) }, context: { tokens } })).stats.tokensAfter,
        );
      }
      expect(sizes[1], name).toBeLessThanOrEqual(sizes[0]!);
      expect(sizes[2], name).toBeLessThanOrEqual(sizes[1]!);
    }
  });
});
