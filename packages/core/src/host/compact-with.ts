import type { Message } from '../messages/message.js';
import { validateCompaction } from '../integrity/validate-compaction.js';
import type { CompactionResult } from '../provider/compaction-result.js';
import { resolveCompressionConfig, type CompressionConfig } from '../provider/compression-config.js';
import type { ContextProvider } from '../provider/context-provider.js';
import { isPipelineProvider, runPipeline } from './pipeline-provider.js';
import { runProvider, type ProviderOptions } from './run-provider.js';
import { silentLogger, type ProviderContext } from '../provider/provider-context.js';
import { createTokenizer } from '../tokens/bpe-tokenizer.js';
import { TokenCounter } from '../tokens/token-counter.js';

export interface CompactOptions {
  readonly config?: Partial<CompressionConfig>;
  readonly context?: Partial<ProviderContext>;
  /** Each provider's own options, keyed by provider name; over the shared `config.extraConfig`. */
  readonly providerOptions?: ProviderOptions;
}

/** Fills in a provider context: an o200k token counter and a silent logger unless given. */
export function createProviderContext(context: Partial<ProviderContext> = {}): ProviderContext {
  return {
    ...context,
    tokens: context.tokens ?? new TokenCounter(createTokenizer('o200k_base')),
    logger: context.logger ?? silentLogger,
  };
}

/**
 * Runs one provider (v1 or v2) the way a host must: the provider's errors are stamped with its
 * name (`ProviderExecutionError`), a v2 provider's digest, stats and timing are computed here, and
 * the output is validated (`InvalidProviderOutputError`).
 * The input array is never modified; on any error the caller still holds it unchanged.
 */
export async function compactWith(provider: ContextProvider, messages: readonly Message[], options: CompactOptions = {}): Promise<CompactionResult> {
  const config = resolveCompressionConfig(options.config);
  const context = createProviderContext(options.context);
  // A pipeline's stages each get their own options; any other provider is one call.
  const result = isPipelineProvider(provider)
    ? await runPipeline(provider, messages, config, context, options.providerOptions)
    : await runProvider(provider, messages, config, context, options.providerOptions);
  validateCompaction(provider.name, messages, result, context.tokens);
  return result;
}
