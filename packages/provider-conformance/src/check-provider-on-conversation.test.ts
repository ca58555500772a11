import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  TokenCounter,
  createProviderContext,
  createTokenizer,
  resolveCompressionConfig,
  type ContextProviderV1,
  type Message,
  type MessageShapeRuleSet,
} from '@ollm/core';
import { conversationArbitrary } from './arbitraries/conversation-arbitrary.js';
import { checkProviderOnConversation } from './check-provider-on-conversation.js';
import { createIdentityProvider } from './identity-provider.js';
import * as broken from './test-support/broken-providers.js';
import { createPlaceholderProvider } from './test-support/placeholder-provider.js';
import { sampleConversation } from './test-support/sample-conversation.js';
import { withTemporaryLogdir } from './temporary-logdir.js';

const tokens = new TokenCounter(createTokenizer('o200k_base'));

/** The distinct checks that failed; runs on a copy, since some broken providers mutate their input. */
async function failedChecks(
  provider: ContextProviderV1,
  original: readonly Message[] = sampleConversation,
  ratio = 0.5,
  shape: MessageShapeRuleSet = 'strict',
): Promise<string[]> {
  const messages = structuredClone(original);
  const config = resolveCompressionConfig({ limit: Math.floor(ratio * tokens.countMessages(messages)) });
  const failures = await checkProviderOnConversation(provider, messages, config, createProviderContext({ tokens }), { shape });
  return [...new Set(failures.map((failure) => failure.check))].sort();
}

describe('checkProviderOnConversation', () => {
  it('finds nothing wrong with the identity provider', async () => {
    expect(await failedChecks(createIdentityProvider())).toEqual([]);
  });

  it('accepts a provider that really removes content and saves it under logdir', async () => {
    const config = resolveCompressionConfig({ limit: 100, maxToolResultTokens: 200 });
    const provider = createPlaceholderProvider();
    const removed = await withTemporaryLogdir(async (logdir) => {
      const result = await provider.compress(sampleConversation, { ...config, logdir }, createProviderContext({ tokens }));
      return result.removed;
    });
    // The sample's long file view must really be removed, or this test would prove nothing.
    expect(removed).toHaveLength(1);
    expect(await checkProviderOnConversation(provider, sampleConversation, config, createProviderContext({ tokens }))).toEqual([]);
  });

  it('accepts a user message that is declared folded, but not a fold that leaves an assistant message first (strict shape)', async () => {
    // It folds the first user message: fine for the OpenAI API, refused by strict chat templates and Anthropic.
    expect(await failedChecks(broken.foldsUserMessage, sampleConversation, 0.5, 'openai')).toEqual([]);
    expect(await failedChecks(broken.foldsUserMessage)).toEqual(['integrity:message-shape']);
  });

  it('reports a provider that leaves two user messages in a row, not one whose input had them', async () => {
    const dropsFirstAnswer = broken.dropsMessages(['assistant-1', 'tool-test', 'tool-read', 'assistant-2']);
    expect(await failedChecks(dropsFirstAnswer, sampleConversation, 0.5, 'openai')).toEqual([]);
    expect(await failedChecks(dropsFirstAnswer)).toEqual(['integrity:message-shape']);
    // The same output from an input that already had the user messages in a row is no failure.
    const input = sampleConversation.filter((message) => !['assistant-1', 'tool-test', 'tool-read', 'assistant-2'].includes(message.id));
    expect(await failedChecks(createIdentityProvider(), input)).toEqual([]);
  });

  it('reports dropped tool results on every generated conversation that has one', async () => {
    const answered = conversationArbitrary({ maxExchanges: 3, longToolOutputs: false }).filter((messages) =>
      messages.some((message) => message.role === 'tool'),
    );
    await fc.assert(
      fc.asyncProperty(answered, async (messages) => {
        expect(await failedChecks(broken.dropsToolResults, messages)).toContain('integrity:tool-pairing');
      }),
      { numRuns: 10 },
    );
  });

  it('accepts the placeholder provider on generated conversations', async () => {
    await fc.assert(
      fc.asyncProperty(conversationArbitrary({ maxExchanges: 3 }), async (messages) => {
        expect(await failedChecks(createPlaceholderProvider(), messages, 0.25)).toEqual([]);
      }),
      { numRuns: 8 },
    );
  });

  it.each([
    { behaviour: 'drops tool results', provider: broken.dropsToolResults, check: 'integrity:tool-pairing' },
    { behaviour: 'drops a tool call but keeps its result', provider: broken.dropsToolCallKeepsResult, check: 'integrity:tool-pairing' },
    { behaviour: 'reorders two messages', provider: broken.reordersMessages, check: 'integrity:order-kept' },
    { behaviour: 'edits a user message', provider: broken.editsUserMessage, check: 'integrity:user-unchanged' },
    { behaviour: 'edits a user message', provider: broken.editsUserMessage, check: 'messages-preserved' },
    { behaviour: 'returns a larger output', provider: broken.growsOutput, check: 'output-not-larger' },
    { behaviour: 'returns a larger output', provider: broken.growsOutput, check: 'integrity:not-larger' },
    { behaviour: 'mutates its input', provider: broken.mutatesInput, check: 'input-unchanged' },
    { behaviour: 'returns a wrong sourceDigest', provider: broken.wrongSourceDigest, check: 'source-digest' },
    { behaviour: 'lists a removed file whose content does not match', provider: broken.mismatchedRemovedFile, check: 'removed-files' },
    { behaviour: 'lists a removed file outside logdir', provider: broken.removedFileOutsideLogdir, check: 'removed-files' },
    { behaviour: 'lists content removed from a message not in the input', provider: broken.removedFromUnknownMessage, check: 'removed-files' },
    { behaviour: 'folds a system message away', provider: broken.foldsSystemMessage, check: 'messages-preserved' },
    { behaviour: 'folds a system message away', provider: broken.foldsSystemMessage, check: 'integrity:system-unchanged' },
    { behaviour: 'throws in compress', provider: broken.throwsInCompress, check: 'compress' },
    { behaviour: 'resolves to null', provider: broken.resolvesToNull, check: 'compress' },
    { behaviour: 'reports wrong stats', provider: broken.wrongStats, check: 'stats' },
    { behaviour: 'reports coveredThrough past the end', provider: broken.coveredThroughPastEnd, check: 'covered-through' },
    { behaviour: 'stays over the limit without a limitation', provider: broken.silentWhenOverLimit, check: 'limitations' },
    { behaviour: 'throws in shouldCompress', provider: broken.throwingShouldCompress, check: 'should-compress' },
  ])('reports a provider that $behaviour as $check', async ({ provider, check }) => {
    expect(await failedChecks(provider)).toContain(check);
  });

  it('reports a sourceDigest that changes between runs on equal input, and nothing else', async () => {
    expect(await failedChecks(broken.createUnstableSourceDigestProvider())).toEqual(['source-digest-stable']);
  });

  it('names the message a provider mutated in place', async () => {
    const config = resolveCompressionConfig({ limit: 10 });
    const input = structuredClone(sampleConversation);
    const failures = await checkProviderOnConversation(broken.mutatesInput, input, config, createProviderContext({ tokens }));
    expect(failures).toContainEqual({ check: 'input-unchanged', detail: 'input message 5 ("assistant-2") was mutated in place' });
  });

  it('names the rule and the message in integrity failures', async () => {
    const config = resolveCompressionConfig({ limit: 10 });
    const failures = await checkProviderOnConversation(broken.reordersMessages, sampleConversation, config, createProviderContext({ tokens }));
    expect(failures).toContainEqual({ check: 'integrity:order-kept', detail: expect.stringContaining('user-1') });
  });
});
