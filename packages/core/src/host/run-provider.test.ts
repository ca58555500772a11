import { describe, expect, it } from 'vitest';
import { computeSourceDigest } from '../digest/source-digest.js';
import { InvalidProviderOutputError } from '../errors/invalid-provider-output-error.js';
import { ProviderExecutionError } from '../errors/provider-execution-error.js';
import type { Message } from '../messages/message.js';
import type { ContextProviderV2, CompactCall } from '../provider/v2/context-provider-v2.js';
import { sampleConversation } from '../test-support/conversation.js';
import { fakeProvider } from '../test-support/fake-provider.js';
import { compactWith } from './compact-with.js';
import { createPipelineProvider } from './pipeline-provider.js';

/** A v2 provider that drops tool-result text to a marker and records the calls it got. */
function cutOutputs(name: string, calls: CompactCall[] = []): ContextProviderV2 & { calls: CompactCall[] } {
  return {
    specificationVersion: 'v2',
    name,
    calls,
    async compress(call) {
      calls.push(call);
      const messages = call.messages.map((message): Message =>
        message.role !== 'tool'
          ? message
          : { ...message, parts: message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: '[cut]' } : part)) },
      );
      return { messages, warnings: [{ type: 'note', message: `${name} cut tool outputs` }] };
    },
  };
}

describe('the host runs a v2 provider', () => {
  it('computes the digest, the token stats and the timing itself, and keeps the typed warnings', async () => {
    const input = sampleConversation();
    const provider = cutOutputs('cut');
    const result = await compactWith(provider, input, { config: { limit: 1_000_000 } });
    expect(result.sourceDigest).toBe(computeSourceDigest(input));
    expect(result.stats.tokensBefore).toBeGreaterThan(result.stats.tokensAfter);
    expect(result.stats.timeMs).toBeGreaterThanOrEqual(0);
    expect(result.warnings).toEqual([{ type: 'note', message: 'cut cut tool outputs' }]);
    expect(result.limitations).toEqual(['cut cut tool outputs']);
    expect(result.coveredThrough).toBe(input.length - 1);
  });

  it('adds a typed limit-not-reached warning when the output is still over the limit', async () => {
    const result = await compactWith(cutOutputs('cut'), sampleConversation(), { config: { limit: 1 } });
    expect(result.warnings).toContainEqual({ type: 'limit-not-reached', tokens: result.stats.tokensAfter, limit: 1 });
  });

  it('gives each provider its own options, by name, over the shared extraConfig', async () => {
    const calls: CompactCall[] = [];
    await compactWith(cutOutputs('cut', calls), sampleConversation(), {
      config: { extraConfig: { shared: 1, both: 'shared' }, maxToolResultTokens: 50 },
      providerOptions: { cut: { both: 'own' }, other: { both: 'not mine' } },
    });
    expect(calls[0]!.providerOptions).toEqual({ shared: 1, both: 'own' });
    expect(calls[0]!.settings).toEqual({ maxToolResultTokens: 50, reasoningStripAgeThreshold: 5 });
  });

  it('runs the stages of a pipeline each with its own options, v1 and v2 mixed', async () => {
    const calls: CompactCall[] = [];
    const v1 = fakeProvider('keep', (messages) => messages);
    const pipeline = createPipelineProvider([v1, cutOutputs('cut', calls)]);
    const result = await compactWith(pipeline, sampleConversation(), { config: { limit: 1 }, providerOptions: { cut: { level: 2 } } });
    expect(v1.calls).toHaveLength(1);
    expect(calls[0]!.providerOptions).toEqual({ level: 2 });
    expect(result.limitations).toContain('cut: cut cut tool outputs');
  });

  it('stamps a plain error with the provider name, and validates the output', async () => {
    const throwing: ContextProviderV2 = { specificationVersion: 'v2', name: 'boom', compress: async () => Promise.reject(new Error('no')) };
    const error = await compactWith(throwing, sampleConversation()).catch((caught: unknown) => caught);
    expect(ProviderExecutionError.isInstance(error) && error.provider).toBe('boom');
    const dropsSystem: ContextProviderV2 = { specificationVersion: 'v2', name: 'drops', compress: async (call) => ({ messages: call.messages.slice(1) }) };
    const invalid = await compactWith(dropsSystem, sampleConversation()).catch((caught: unknown) => caught);
    expect(InvalidProviderOutputError.isInstance(invalid) && invalid.rule).toBe('system-unchanged');
  });
});
