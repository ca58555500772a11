import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProviderContext, findIntegrityViolations, resolveCompressionConfig, type Message, runProvider } from '@ollm/core';
import { conversationArbitrary } from '@ollm/provider-conformance';
import { createMaskProvider, isPlaceholder } from './index.js';
import { findObservations } from './find-observations.js';

const context = createProviderContext();

/** Tool outputs of `messages` as `messageId/partIndex -> output`. */
function outputs(messages: readonly Message[]): Map<string, string> {
  return new Map(
    findObservations(messages).map((observation) => [`${messages[observation.messageIndex]!.id}/${observation.partIndex}`, observation.result.output]),
  );
}

describe('mask invariants on generated conversations', () => {
  it('keeps the last keepLast outputs, only shrinks older ones into placeholders, touches nothing else', async () => {
    await fc.assert(
      fc.asyncProperty(
        conversationArbitrary({ maxExchanges: 5 }),
        fc.integer({ min: 0, max: 4 }),
        fc.constantFrom('all', 'until-limit'),
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        async (messages, keepLast, mode, ratio) => {
          const limit = Math.floor(ratio * context.tokens.countMessages(messages));
          const config = resolveCompressionConfig({ limit, extraConfig: { keepLast, mode } });
          const result = await runProvider(createMaskProvider(), messages, config, context);
          expect(findIntegrityViolations(messages, result, context.tokens)).toEqual([]);

          const before = outputs(messages);
          const after = outputs(result.messages);
          const keys = [...before.keys()];
          const recent = new Set(keys.slice(Math.max(0, keys.length - keepLast)));
          let changed = 0;
          for (const [key, output] of before) {
            const now = after.get(key)!;
            if (now === output) continue;
            changed += 1;
            expect(recent.has(key)).toBe(false);
            expect(isPlaceholder(now)).toBe(true);
            expect(context.tokens.countText(now)).toBeLessThan(context.tokens.countText(output));
          }
          expect(result.removed).toHaveLength(changed);
          // Everything but tool result outputs is identical, part by part.
          const strip = (list: readonly Message[]) =>
            list.map((message) => ({ ...message, parts: message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: '' } : part)) }));
          expect(strip(result.messages)).toEqual(strip(messages));
          if (mode === 'until-limit' && result.stats.tokensAfter <= limit && changed > 0) {
            // Stopping rule: without the newest masked output it would still be over the limit.
            const last = result.removed.at(-1)!;
            const lastMessage = result.messages.find((message) => message.id === last.messageId)!;
            const placeholderTokens = lastMessage.parts
              .filter((part) => part.type === 'tool-result' && isPlaceholder(part.output))
              .map((part) => context.tokens.countText(part.type === 'tool-result' ? part.output : ''))
              .at(-1)!;
            expect(result.stats.tokensAfter + last.originalTokens - placeholderTokens).toBeGreaterThan(limit);
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
