import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import { withParts } from '../messages/message-helpers.js';
import { InvalidProviderOutputError } from '../errors/invalid-provider-output-error.js';
import { ProviderExecutionError } from '../errors/provider-execution-error.js';
import { computeSourceDigest } from '../digest/source-digest.js';
import { sampleConversation } from '../test-support/conversation.js';
import { fakeProvider } from '../test-support/fake-provider.js';
import { compactWith, createProviderContext } from './compact-with.js';
import { createPipelineProvider } from './pipeline-provider.js';

const truncateTools = (messages: readonly Message[]) =>
  messages.map((message) =>
    message.role === 'tool'
      ? withParts(
          message,
          message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: part.output.slice(0, 10) } : part)),
        )
      : message,
  );
const stripReasoning = (messages: readonly Message[]) =>
  messages.map((message) =>
    message.parts.some((part) => part.type === 'reasoning')
      ? withParts(
          message,
          message.parts.filter((part) => part.type !== 'reasoning'),
        )
      : message,
  );

describe('createPipelineProvider', () => {
  const context = createProviderContext();
  const input = sampleConversation();
  const full = context.tokens.countMessages(input);
  const afterTruncation = context.tokens.countMessages(truncateTools(input));

  it('is named after its stages', () => {
    const pipeline = createPipelineProvider([fakeProvider('a', (m) => m), fakeProvider('b', (m) => m)]);
    expect(pipeline.name).toBe('a,b');
    expect(pipeline.specificationVersion).toBe('v2');
    expect(pipeline.usesModel).toBe(false);
    expect(pipeline.stages.map((stage) => stage.name)).toEqual(['a', 'b']);
    expect(() => createPipelineProvider([])).toThrow();
  });

  it('stops as soon as the result is under the limit: a later stage is not called', async () => {
    const first = fakeProvider('truncate', truncateTools, { limitations: ['tool results truncated'] });
    const second = fakeProvider('strip', stripReasoning);
    const pipeline = createPipelineProvider([first, second]);
    const result = await compactWith(pipeline, input, { config: { limit: afterTruncation }, context });
    expect(first.calls).toHaveLength(1);
    expect(second.calls).toHaveLength(0);
    expect(result.stats.tokensAfter).toBe(afterTruncation);
    expect(result.stats.tokensBefore).toBe(full);
    expect(result.sourceDigest).toBe(computeSourceDigest(input));
  });

  it('does not run at all when the input is already under the limit', async () => {
    const first = fakeProvider('truncate', truncateTools);
    const result = await compactWith(createPipelineProvider([first]), input, { config: { limit: full }, context });
    expect(first.calls).toHaveLength(0);
    expect(result.messages).toBe(input);
  });

  it('feeds each stage the previous output and merges removed, limitations and stats', async () => {
    const removedA = { messageId: '4', kind: 'tool-result', sha256: 'a'.repeat(64), originalTokens: 100 };
    const removedB = { messageId: '3', kind: 'reasoning', sha256: 'b'.repeat(64), originalTokens: 7 };
    const first = fakeProvider('truncate', truncateTools, { removed: [removedA], limitations: ['cut tool output'] });
    const second = fakeProvider('strip', stripReasoning, {
      removed: [removedB],
      limitations: ['strip: dropped reasoning'],
      stats: { tokensBefore: 0, tokensAfter: 0, timeMs: 0, modelCalls: 2, modelInputTokens: 300, modelOutputTokens: 40 },
    });
    const result = await compactWith(createPipelineProvider([first, second]), input, { config: { limit: 1 }, context });
    expect(second.calls[0]).toEqual(truncateTools(input));
    expect(result.removed).toEqual([removedA, removedB]);
    // Each stage's limitations are labelled with its name, once (strip's own text already starts with it).
    expect(result.limitations.slice(0, 2)).toEqual(['truncate: cut tool output', 'strip: dropped reasoning']);
    expect(result.limitations[2]).toMatch(/limit 1 was not reached/);
    expect(result.stats).toMatchObject({ modelCalls: 2, modelInputTokens: 300, modelOutputTokens: 40 });
    expect(result.stats.tokensAfter).toBe(context.tokens.countMessages(stripReasoning(truncateTools(input))));
  });

  it('validates each stage and names the stage that broke a rule', async () => {
    const bad = fakeProvider('drops-user', (messages) => messages.filter((message) => message.role !== 'user'));
    const error = await compactWith(createPipelineProvider([fakeProvider('noop', (m) => m), bad]), input, { config: { limit: 1 }, context }).catch(
      (e: unknown) => e,
    );
    expect(InvalidProviderOutputError.isInstance(error)).toBe(true);
    expect((error as InvalidProviderOutputError).provider).toBe('drops-user');
  });

  it('names the stage that threw', async () => {
    const throwing = fakeProvider('explodes', () => {
      throw new Error('boom');
    });
    const error = await compactWith(createPipelineProvider([fakeProvider('noop', (m) => m), throwing]), input, { config: { limit: 1 }, context }).catch(
      (e: unknown) => e,
    );
    expect(ProviderExecutionError.isInstance(error)).toBe(true);
    expect((error as ProviderExecutionError).provider).toBe('explodes');
  });
});
