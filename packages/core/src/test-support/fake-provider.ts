import type { Message } from '../messages/message.js';
import type { CompactionResult } from '../provider/compaction-result.js';
import type { CompressionConfig } from '../provider/compression-config.js';
import type { ContextProviderV1 } from '../provider/v1/context-provider-v1.js';
import type { ProviderContext } from '../provider/provider-context.js';
import { buildCompactionResult } from '../host/build-compaction-result.js';

export interface FakeProvider extends ContextProviderV1 {
  readonly calls: (readonly Message[])[];
}

/** A provider whose output is `transform(messages)`, recording each input it was given. */
export function fakeProvider(
  name: string,
  transform: (messages: readonly Message[], config: CompressionConfig, context: ProviderContext) => readonly Message[] | Promise<readonly Message[]>,
  extra: Partial<CompactionResult> = {},
): FakeProvider {
  const calls: (readonly Message[])[] = [];
  return {
    specificationVersion: 'v1',
    name,
    description: `fake provider ${name}`,
    calls,
    shouldCompress: (messages, config, context) => config.limit !== undefined && context.tokens.countMessages(messages) > config.limit,
    async compress(messages, config, context) {
      calls.push(messages);
      const output = await transform(messages, config, context);
      return { ...buildCompactionResult({ input: messages, output, tokens: context.tokens, startedAt: performance.now() }), ...extra };
    },
  };
}
