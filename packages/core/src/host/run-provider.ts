import { OllmError } from '../errors/ollm-error.js';
import { ProviderExecutionError } from '../errors/provider-execution-error.js';
import type { Message } from '../messages/message.js';
import type { CompactionResult } from '../provider/compaction-result.js';
import type { CompressionConfig } from '../provider/compression-config.js';
import type { ContextProvider } from '../provider/context-provider.js';
import type { ProviderContext } from '../provider/provider-context.js';
import { describeWarning, type CompactionWarning } from '../provider/v2/compaction-warning.js';
import type { CompactCall } from '../provider/v2/context-provider-v2.js';
import { buildCompactionResult } from './build-compaction-result.js';

/** Options for each provider, keyed by provider name (`{ trim: { ... }, 'goal-aware': { ... } }`). */
export type ProviderOptions = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * Calls one provider of either version and returns a `CompactionResult`: for a v2 provider the
 * host computes the source digest, the token stats and the time taken, and gives it its own
 * options (`providerOptions[name]`, over the shared `config.extraConfig`). A v1 provider is called
 * as first specified. An error thrown inside is stamped with the provider's name
 * (`ProviderExecutionError`); typed `OllmError`s pass through. Validation is the caller's.
 */
export async function runProvider(
  provider: ContextProvider,
  messages: readonly Message[],
  config: CompressionConfig,
  context: ProviderContext,
  providerOptions: ProviderOptions = {},
): Promise<CompactionResult> {
  const options = { ...config.extraConfig, ...providerOptions[provider.name] };
  try {
    if (provider.specificationVersion === 'v1') {
      const result = await provider.compress(messages, { ...config, extraConfig: options }, context);
      // A malformed result is left for the validator to name (`result-shape`).
      if (result === null || typeof result !== 'object' || !Array.isArray(result.limitations) || result.warnings) return result;
      return { ...result, warnings: result.limitations.map((message): CompactionWarning => ({ type: 'note', message })) };
    }
    const startedAt = performance.now();
    const call: CompactCall = {
      messages,
      ...(config.limit !== undefined ? { limit: config.limit } : {}),
      settings: {
        maxToolResultTokens: config.maxToolResultTokens,
        reasoningStripAgeThreshold: config.reasoningStripAgeThreshold,
        ...(config.logdir !== undefined ? { logdir: config.logdir } : {}),
      },
      providerOptions: options,
      tokens: context.tokens,
      logger: context.logger,
      ...(context.model ? { model: context.model } : {}),
      ...(context.abortSignal ? { abortSignal: context.abortSignal } : {}),
      ...(context.goal ? { goal: context.goal } : {}),
      ...(context.state ? { state: context.state } : {}),
    };
    const output = await provider.compress(call);
    const own = output.warnings ?? [];
    const warnings = [...own];
    const tokensAfter = context.tokens.countMessages(output.messages);
    if (config.limit !== undefined && tokensAfter > config.limit && !warnings.some((warning) => warning.type === 'limit-not-reached')) {
      warnings.push({ type: 'limit-not-reached', tokens: tokensAfter, limit: config.limit });
    }
    // The prose keeps the provider's own words; the host's typed warning is added only where it said nothing.
    const limitations = (own.length > 0 ? own : warnings).map(describeWarning);
    const usage = output.modelUsage;
    return buildCompactionResult({
      input: messages,
      output: output.messages,
      tokens: context.tokens,
      startedAt,
      removed: output.removed ?? [],
      folded: output.folded ?? [],
      limitations,
      warnings,
      ...(usage ? { modelStats: { modelInputTokens: usage.inputTokens, modelOutputTokens: usage.outputTokens, modelCalls: usage.calls } } : {}),
    });
  } catch (error) {
    if (OllmError.isInstance(error)) throw error;
    throw new ProviderExecutionError({ provider: provider.name, cause: error });
  }
}
