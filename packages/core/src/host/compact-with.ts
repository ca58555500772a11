import type { Message } from '../messages/message.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { DEFAULT_MESSAGE_SHAPE, isMessageShapeRuleSet, type MessageShapeRuleSet } from '../integrity/message-shape.js';
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
  /**
   * The message shape the output must keep, as the target API needs it: `openai` (default;
   * nothing empty, tool results right after their call) or `strict` (also: system messages
   * first, then a user turn, user and assistant turns alternating — chat templates such as
   * Mistral's and Gemma's, the Anthropic Messages API). The output may break a rule no more often
   * than the input does; otherwise `InvalidProviderOutputError` with rule `message-shape`.
   */
  readonly shape?: MessageShapeRuleSet;
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
 * the output is validated (`InvalidProviderOutputError`), the message shape (`options.shape`) included.
 * The input array is never modified; on any error the caller still holds it unchanged.
 */
export async function compactWith(provider: ContextProvider, messages: readonly Message[], options: CompactOptions = {}): Promise<CompactionResult> {
  const shape = options.shape ?? DEFAULT_MESSAGE_SHAPE;
  if (!isMessageShapeRuleSet(shape)) {
    throw new InvalidArgumentError({ argument: 'shape', message: `shape must be "openai" or "strict", got ${JSON.stringify(shape)}` });
  }
  const config = resolveCompressionConfig(options.config);
  const context = createProviderContext(options.context);
  // A pipeline's stages each get their own options; any other provider is one call.
  const result = isPipelineProvider(provider)
    ? await runPipeline(provider, messages, config, context, options.providerOptions, shape)
    : await runProvider(provider, messages, config, context, options.providerOptions);
  validateCompaction(provider.name, messages, result, context.tokens, { shape });
  return result;
}
