// The tau-bench rows of docs/benchmarks.md for trim alone and the runtime's pipeline, in seconds:
//   pnpm vitest run --config plugins/trim/scripts/vitest.measure.config.ts tau-bench-retention
import { compactWith, createTokenizer, TokenCounter } from '@ollm/core';
import { ProviderRegistry } from '@ollm/runtime';
import { expect, it } from 'vitest';
// The bench's own loader and probes, so these figures are the ones docs/benchmarks.md reports.
import { allConversations, defaultFixtureFolder, loadFixtures } from '../../../internal/bench/src/fixture-set.js';
import { measureRetention, probesOf, searchableText } from '../../../internal/bench/src/retention.js';
// Neither is a dependency of trim; the pipeline row is the one the runtime uses.
import codeAware from '../../code-aware/src/index.js';
import mask from '../../mask/src/index.js';
import trim from '../src/index.js';

const targets = [0.5, 0.25];
const strategies = ['trim', 'mask,code-aware,trim'];

it('measures tau-bench retention of trim at 50% and 25%', async () => {
  const registry = new ProviderRegistry();
  for (const provider of [trim, mask, codeAware]) registry.register(provider);
  const conversations = allConversations(await loadFixtures(defaultFixtureFolder())).filter((conversation) => conversation.kind === 'tau-bench');
  for (const strategy of strategies) {
    const provider = registry.get(strategy);
    for (const target of targets) {
      let available = 0;
      let retained = 0;
      let tokensBefore = 0;
      let tokensAfter = 0;
      let underLimit = 0;
      const byKind: Record<string, { available: number; lost: number }> = {};
      for (const conversation of conversations) {
        const tokens = new TokenCounter(createTokenizer('o200k_base'));
        const before = tokens.countMessages(conversation.messages);
        const result = await compactWith(provider, conversation.messages, { config: { limit: Math.floor(before * target) }, context: { tokens } });
        const retention = measureRetention(probesOf(conversation), searchableText(conversation.messages), searchableText(result.messages));
        available += retention.available;
        retained += retention.retained;
        tokensBefore += before;
        const after = tokens.countMessages(result.messages);
        tokensAfter += after;
        if (after <= Math.floor(before * target)) underLimit += 1;
        for (const [kind, count] of Object.entries(retention.availableByKind)) {
          const entry = (byKind[kind] ??= { available: 0, lost: 0 });
          entry.available += count;
        }
        for (const probe of retention.lost) byKind[probe.kind]!.lost += 1;
        // TRIM_SHOW_LOST=1 names the probes lost at 25%; TRIM_SHOW_CONVERSATION=<id> prints that conversation's placeholders.
        if (strategy === 'trim' && target === 0.25) {
          if (process.env['TRIM_SHOW_LOST']) for (const probe of retention.lost) console.log(`lost ${conversation.id} ${probe.kind} ${probe.text}`);
          if (process.env['TRIM_SHOW_CONVERSATION'] === conversation.id) {
            for (const message of result.messages)
              for (const part of message.parts) if (part.type === 'tool-result' && part.output.startsWith('[ollm trim]')) console.log(part.output);
          }
        }
      }
      const kinds = Object.entries(byKind)
        .map(([kind, entry]) => `${kind} ${((100 * (entry.available - entry.lost)) / entry.available).toFixed(1)}% (${entry.available})`)
        .join(', ');
      console.log(
        `${strategy} at ${target * 100}%: ${conversations.length} conversations, tokens after ${((100 * tokensAfter) / tokensBefore).toFixed(1)}% (pooled), at or under the limit ${underLimit}, ` +
          `retention pooled ${((100 * retained) / available).toFixed(1)}% (${retained}/${available}); ${kinds}`,
      );
    }
  }
  expect(conversations.length).toBeGreaterThan(0);
});
