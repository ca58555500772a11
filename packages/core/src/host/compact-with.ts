import type { Message } from '../messages/message.js';
import { ProviderExecutionError } from '../errors/provider-execution-error.js';
import { OllmError } from '../errors/ollm-error.js';
import { validateCompaction } from '../integrity/validate-compaction.js';
import type { CompactionResult } from '../provider/compaction-result.js';
import { resolveCompressionConfig, type CompressionConfig } from '../provider/compression-config.js';
import type { ContextProvider } from '../provider/v1/context-provider-v1.js';
import { silentLogger, type ProviderContext } from '../provider/provider-context.js';
import { createTokenizer } from '../tokens/bpe-tokenizer.js';
import { TokenCounter } from '../tokens/token-counter.js';

export interface CompactOptions {
  readonly config?: Partial<CompressionConfig>;
  readonly context?: Partial<ProviderContext>;
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
 * Runs one provider the way a host must: the provider's errors are stamped with its name
 * (`ProviderExecutionError`), and its output is validated (`InvalidProviderOutputError`).
 * The input array is never modified; on any error the caller still holds it unchanged.
 */
export async function compactWith(provider: ContextProvider, messages: readonly Message[], options: CompactOptions = {}): Promise<CompactionResult> {
  const config = resolveCompressionConfig(options.config);
  const context = createProviderContext(options.context);
  let result: CompactionResult;
  try {
    result = await provider.compress(messages, config, context);
  } catch (error) {
    if (OllmError.isInstance(error)) throw error;
    throw new ProviderExecutionError({ provider: provider.name, cause: error });
  }
  validateCompaction(provider.name, messages, result, context.tokens);
  return result;
}
