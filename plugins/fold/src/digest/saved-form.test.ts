import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TokenCounter, createTokenizer, sha256Hex, type Message, type TokenCounting } from '@ollm/core';
import { conversationArbitrary, listFixtureFiles, loadFixtureConversations } from '@ollm/provider-conformance';
import { countingIdentity } from '../cache/counting-identity.js';
import { clearFoldCaches } from '../cache/fold-caches.js';
import { messageFacts } from '../cache/message-facts.js';
import { savedForm, savedFormOf, savedFormPiece, savedFormSha256, savedFormTokens } from './saved-form.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));
const cl100k = new TokenCounter(createTokenizer('cl100k_base'));

/**
 * Runs of consecutive messages as runs of dropped turns are: the whole conversation (every
 * message followed by another), each message alone (each as the last), and a few pairs.
 */
function runsOf(messages: readonly Message[]): Message[][] {
  const pairs = [0, 1, Math.floor(messages.length / 2), messages.length - 2].map((start) => messages.slice(start, start + 2));
  return [messages.slice(), messages.slice(1), ...messages.map((message) => [message]), ...pairs].filter((run) => run.length > 0);
}

describe('saved forms from message elements', () => {
  it('are JSON.stringify(messages, null, 1), hashed and counted as the whole text, on every real transcript', async () => {
    const files = listFixtureFiles('all');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      for (const { label, messages } of (await loadFixtureConversations(file)).slice(0, 3)) {
        clearFoldCaches();
        // Each message alone first, then followed by others: one count is derived from the other.
        for (const run of [...runsOf(messages).reverse(), ...runsOf(messages)]) {
          const facts = run.map(messageFacts);
          const text = savedForm(run);
          expect(savedFormOf(facts), label).toBe(text);
          expect(savedFormSha256(facts), label).toBe(sha256Hex(text));
          // Prefixes of what was hashed: the chain of states is read, not extended.
          const half = facts.slice(0, Math.ceil(facts.length / 2));
          expect(savedFormSha256(half), label).toBe(sha256Hex(savedForm(run.slice(0, half.length))));
          for (const counter of [tokens, cl100k]) {
            expect(
              savedFormTokens(facts, () => text, counter, countingIdentity(counter)),
              `${label}, ${run.length} messages`,
            ).toBe(counter.countText(text));
          }
        }
      }
    }
  }, 300_000);

  it('hold on generated conversations, whatever was hashed before (a chain grows, is cut short, goes another way)', () => {
    fc.assert(
      fc.property(conversationArbitrary({ maxExchanges: 8 }), conversationArbitrary({ maxExchanges: 4 }), fc.nat(30), (messages, other, cut) => {
        if (cut % 5 === 0) clearFoldCaches();
        // The same first message, then another conversation: the chain of the first must not be reused past it.
        const diverging = [messages[0]!, ...other];
        const prefixes = messages.map((_, end) => messages.slice(0, end + 1));
        for (const run of [...runsOf(messages), ...prefixes, diverging, messages.slice(0, 1 + (cut % messages.length))]) {
          const facts = run.map(messageFacts);
          const text = savedForm(run);
          expect(savedFormOf(facts)).toBe(text);
          expect(savedFormSha256(facts)).toBe(sha256Hex(text));
          expect(savedFormTokens(facts, () => text, tokens, countingIdentity(tokens))).toBe(tokens.countText(text));
        }
      }),
      { numRuns: 25 },
    );
  });

  it('with a counter of its own kind, the whole text is counted', () => {
    const own: TokenCounting = {
      tokenizer: tokens.tokenizer,
      countText: (text) => text.length,
      countPartText: (part) => tokens.countPartText(part),
      countMessage: (message) => tokens.countMessage(message),
      countMessages: (messages) => tokens.countMessages(messages),
    };
    const messages: Message[] = [{ id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'hello' }] }];
    const facts = messages.map(messageFacts);
    expect(countingIdentity(own).exactSegments).toBe(false);
    expect(savedFormTokens(facts, () => savedForm(messages), own, countingIdentity(own))).toBe(savedForm(messages).length);
  });

  it('a piece writes its content out only when read, and names it by the sha256 of that content', () => {
    const messages: Message[] = [
      { id: 'a', role: 'assistant', parts: [{ type: 'text', text: 'one' }] },
      { id: 'b', role: 'tool', parts: [{ type: 'tool-result', callId: 'c', output: 'two\nlines' }] },
    ];
    const piece = savedFormPiece('a', 'turns', messages.map(messageFacts));
    expect(piece.sha256).toBe(sha256Hex(savedForm(messages)));
    expect(piece.content).toBe(savedForm(messages));
    expect(JSON.parse(piece.content)).toEqual(messages);
  });
});
