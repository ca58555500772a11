import { buildCompactionResult, type ContextProviderV1 } from '@ollm/core';

/**
 * A provider that returns its input unchanged: the smallest conforming provider. It never
 * compresses, so when the input is over the limit it says so in `limitations`. Useful as a
 * baseline in tests and as the stage that changes nothing in pipelines.
 */
export function createIdentityProvider(): ContextProviderV1 {
  return {
    specificationVersion: 'v1',
    name: 'identity',
    description: 'Returns the conversation unchanged (a baseline for tests)',
    shouldCompress: () => false,
    async compress(messages, config, context) {
      const startedAt = performance.now();
      const tokens = context.tokens.countMessages(messages);
      const overLimit = config.limit !== undefined && tokens > config.limit;
      return buildCompactionResult({
        input: messages,
        output: messages,
        tokens: context.tokens,
        startedAt,
        limitations: overLimit ? [`identity never compresses: ${tokens} tokens stay over the limit ${config.limit}`] : [],
      });
    },
  };
}
