import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenCounter, compactWith, createTokenizer, type Message, type TokenCounting } from '@ollm/core';
import { conversationArbitrary, listFixtureFiles, loadFixtureConversations } from '@ollm/provider-conformance';
import { createFoldProvider } from '../index.js';
import type { FoldOptions } from '../fold-options.js';
import { FOLD_CACHE_LIMITS, clearFoldCaches, foldCaches } from './fold-caches.js';

const tokenizer = createTokenizer('o200k_base');

/** What a compaction gives back, as JSON: every byte the caller sees but the time it took. */
async function compacted(
  messages: readonly Message[],
  limit: number | undefined,
  options: FoldOptions = {},
  tokens: TokenCounting = new TokenCounter(tokenizer),
) {
  const result = await compactWith(createFoldProvider(options), messages, { config: limit === undefined ? {} : { limit }, context: { tokens } });
  return JSON.stringify({ messages: result.messages, removed: result.removed, warnings: result.warnings, limitations: result.limitations });
}

/** Where the last turn (an assistant message and the results of its calls) begins. */
const lastTurn = (messages: readonly Message[]): number => messages.findLastIndex((message) => message.role === 'assistant');

describe("fold's caches never change its output", () => {
  it('on every real transcript: cold, again, on a fresh copy, and after the conversation grew by one turn', async () => {
    const files = listFixtureFiles('all');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      for (const { label, messages } of (await loadFixtureConversations(file)).slice(0, 3)) {
        const total = new TokenCounter(tokenizer).countMessages(messages);
        for (const share of [undefined, 0.5, 0.1]) {
          const limit = share === undefined ? undefined : Math.floor(total * share);
          const name = `${label} at ${share ?? 'no limit'}`;
          clearFoldCaches();
          const cold = await compacted(messages, limit);
          // The same objects again, then equal content parsed afresh (new objects, the same strings).
          expect(await compacted(messages, limit), name).toBe(cold);
          expect(await compacted(structuredClone(messages) as Message[], limit), name).toBe(cold);
          // A live agent: the conversation without its last turn first, then with it, one counter throughout.
          clearFoldCaches();
          const tokens = new TokenCounter(tokenizer);
          const cut = lastTurn(messages);
          if (cut > 0) await compacted(messages.slice(0, cut), limit, {}, tokens);
          expect(await compacted(messages, limit, {}, tokens), name).toBe(cold);
        }
      }
    }
  }, 600_000);

  it('on generated conversations, whatever was compacted before (a prefix, other options, other limits)', async () => {
    const options = fc.constantFrom<FoldOptions>(
      {},
      { keepRecentTurns: 0 },
      { keepRecentTurns: 1, minOutputTokens: 0, minCallTokens: 0 },
      { maxDigestNames: 2, maxCallNames: 0, maxLineNames: 1, lineCharacters: 20 },
    );
    await fc.assert(
      fc.asyncProperty(
        conversationArbitrary({ maxExchanges: 8 }),
        fc.double({ min: 0.02, max: 1.1, noNaN: true }),
        options,
        options,
        fc.nat(6),
        async (messages, share, chosen, before, cut) => {
          const limit = Math.floor(new TokenCounter(tokenizer).countMessages(messages) * share);
          clearFoldCaches();
          const cold = await compacted(messages, limit, chosen);
          // Earlier calls on part of the conversation, with other options and another limit.
          await compacted(messages.slice(0, Math.max(1, messages.length - cut)), limit, before);
          await compacted(messages.slice(0, Math.max(1, messages.length - cut)), Math.floor(limit / 2), chosen);
          expect(await compacted(messages, limit, chosen)).toBe(cold);
          expect(await compacted(structuredClone(messages) as Message[], limit, chosen)).toBe(cold);
        },
      ),
      { numRuns: 60 },
    );
  }, 300_000);

  it("a counter of its own kind (every text counted whole) gives the output core's counter gives (counts added up)", async () => {
    const core = new TokenCounter(tokenizer);
    // The same counts, but not core's class: fold cannot know they add up, so it counts whole texts.
    const own: TokenCounting = {
      tokenizer,
      countText: (text) => core.countText(text),
      countPartText: (part) => core.countPartText(part),
      countMessage: (message) => core.countMessage(message),
      countMessages: (list) => core.countMessages(list),
    };
    for (const file of listFixtureFiles('all')) {
      for (const { label, messages } of (await loadFixtureConversations(file)).slice(0, 2)) {
        for (const share of [0.5, 0.1]) {
          const limit = Math.floor(core.countMessages(messages) * share);
          clearFoldCaches();
          expect(await compacted(messages, limit, {}, own), `${label} at ${share}`).toBe(await compacted(messages, limit));
        }
      }
    }
    await fc.assert(
      fc.asyncProperty(conversationArbitrary({ maxExchanges: 8 }), fc.double({ min: 0.02, max: 1, noNaN: true }), async (messages, share) => {
        const limit = Math.floor(core.countMessages(messages) * share);
        expect(await compacted(messages, limit, { keepRecentTurns: 1 }, own)).toBe(await compacted(messages, limit, { keepRecentTurns: 1 }));
      }),
      { numRuns: 40 },
    );
  }, 600_000);

  it('after one more turn, only the new turn and its messages are derived; the others are found again', async () => {
    const messages = (await loadFixtureConversations(listFixtureFiles('repo')[0]!))[0]!.messages;
    const cut = lastTurn(messages);
    const limit = Math.floor(new TokenCounter(tokenizer).countMessages(messages) * 0.25);
    clearFoldCaches();
    const tokens = new TokenCounter(tokenizer);
    await compacted(messages.slice(0, cut), limit, {}, tokens);
    const [turns, facts] = [foldCaches.turns.size, foldCaches.messages.size];
    await compacted(messages, limit, {}, tokens);
    expect(foldCaches.turns.size - turns).toBe(1);
    expect(foldCaches.messages.size - facts).toBe(messages.length - cut);
    // The same conversation again derives nothing new.
    await compacted(structuredClone(messages) as Message[], limit, {}, tokens);
    expect([foldCaches.turns.size, foldCaches.messages.size]).toEqual([turns + 1, facts + messages.length - cut]);
  }, 120_000);

  it('stay within their bounds', async () => {
    const files = listFixtureFiles('all').slice(0, 4);
    for (const file of files) {
      for (const { messages } of (await loadFixtureConversations(file)).slice(0, 2)) {
        await compacted(messages, Math.floor(new TokenCounter(tokenizer).countMessages(messages) * 0.1));
      }
    }
    for (const [name, cache] of Object.entries(foldCaches)) {
      const limits = FOLD_CACHE_LIMITS[name as keyof typeof foldCaches];
      expect(cache.size, name).toBeGreaterThan(0);
      expect(cache.size, name).toBeLessThanOrEqual(limits.entries);
      expect(cache.bytes, name).toBeLessThanOrEqual(limits.bytes);
    }
  }, 300_000);
});
