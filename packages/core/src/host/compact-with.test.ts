import { describe, expect, it } from 'vitest';
import type { Message } from '../messages/message.js';
import { withParts } from '../messages/message-helpers.js';
import { InvalidProviderOutputError } from '../errors/invalid-provider-output-error.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { ProviderExecutionError } from '../errors/provider-execution-error.js';
import { computeSourceDigest } from '../digest/source-digest.js';
import { createTokenizer } from '../tokens/bpe-tokenizer.js';
import { TokenCounter } from '../tokens/token-counter.js';
import { sampleConversation } from '../test-support/conversation.js';
import { fakeProvider } from '../test-support/fake-provider.js';
import { compactWith, createProviderContext } from './compact-with.js';

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** Truncates every tool result to its first 10 characters: a valid compaction. */
const truncateTools = (messages: readonly Message[]) =>
  messages.map((message) =>
    message.role === 'tool'
      ? withParts(
          message,
          message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: part.output.slice(0, 10) } : part)),
        )
      : message,
  );

describe('compactWith', () => {
  it('returns a valid provider result with digest, stats and the default config', async () => {
    const input = sampleConversation();
    let seenConfig: unknown;
    const provider = fakeProvider('truncate', (messages, config) => {
      seenConfig = config;
      return truncateTools(messages);
    });
    const result = await compactWith(provider, input, { config: { limit: 100 } });
    expect(result.sourceDigest).toBe(computeSourceDigest(input));
    expect(result.stats.tokensAfter).toBeLessThan(result.stats.tokensBefore);
    expect(seenConfig).toMatchObject({ limit: 100, maxToolResultTokens: 2000, reasoningStripAgeThreshold: 5 });
  });

  it('stamps an error thrown inside a provider with its name (ProviderExecutionError)', async () => {
    const cause = new TypeError('cannot read properties of undefined');
    const provider = fakeProvider('broken', () => {
      throw cause;
    });
    const error = await caught(compactWith(provider, sampleConversation()));
    expect(ProviderExecutionError.isInstance(error)).toBe(true);
    expect((error as ProviderExecutionError).provider).toBe('broken');
    expect((error as Error).message).toContain('"broken"');
    expect((error as Error).message).toContain('cannot read properties of undefined');
    expect((error as Error).cause).toBe(cause);
  });

  it('lets typed ollm errors from a provider through unchanged, so callers can map them', async () => {
    const typed = new InvalidArgumentError({ argument: 'extraConfig.keep', message: 'keep must be positive' });
    const error = await caught(
      compactWith(
        fakeProvider('strict', () => Promise.reject(typed)),
        sampleConversation(),
      ),
    );
    expect(error).toBe(typed);
  });

  it('rejects invalid output with InvalidProviderOutputError naming provider and rule, leaving the input untouched', async () => {
    const input = sampleConversation();
    const snapshot = structuredClone(input);
    const references = [...input];
    const provider = fakeProvider('drops-system', (messages) => messages.slice(1));
    const error = await caught(compactWith(provider, input));
    expect(InvalidProviderOutputError.isInstance(error)).toBe(true);
    expect((error as InvalidProviderOutputError).provider).toBe('drops-system');
    expect((error as InvalidProviderOutputError).rule).toBe('system-unchanged');
    expect(input).toEqual(snapshot);
    expect(input.every((message, index) => message === references[index])).toBe(true);
  });

  it('rejects a provider that returns nothing', async () => {
    const provider = { ...fakeProvider('empty', (messages) => messages), compress: async () => undefined as never };
    const error = await caught(compactWith(provider, sampleConversation()));
    expect((error as InvalidProviderOutputError).rule).toBe('result-shape');
  });

  it('passes the given context through and fills in tokens and logger', async () => {
    const tokens = new TokenCounter(createTokenizer('cl100k_base'));
    let seen: unknown;
    const provider = fakeProvider('look', (messages, _config, context) => {
      seen = context.tokens;
      return messages;
    });
    await compactWith(provider, sampleConversation(), { context: { tokens } });
    expect(seen).toBe(tokens);
    const filled = createProviderContext();
    expect(filled.tokens.tokenizer.encoding).toBe('o200k_base');
    expect(() => filled.logger.warn('ignored')).not.toThrow();
  });
});
