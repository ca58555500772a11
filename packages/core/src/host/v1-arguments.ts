import type { CompactionResult } from '../provider/compaction-result.js';
import { resolveCompressionConfig, type CompressionConfig } from '../provider/compression-config.js';
import type { ProviderContext } from '../provider/provider-context.js';
import type { CompactionWarning } from '../provider/v2/compaction-warning.js';
import type { CompactCall, CompactOutput } from '../provider/v2/context-provider-v2.js';

/**
 * A v2 call as the `(config, context)` pair of v1, for a provider whose compaction code was
 * written against v1: its own options become `config.extraConfig`.
 */
export function v1Arguments(call: CompactCall): { config: CompressionConfig; context: ProviderContext } {
  return {
    config: resolveCompressionConfig({ ...call.settings, ...(call.limit !== undefined ? { limit: call.limit } : {}), extraConfig: call.providerOptions }),
    context: {
      tokens: call.tokens,
      logger: call.logger,
      ...(call.model ? { model: call.model } : {}),
      ...(call.abortSignal ? { abortSignal: call.abortSignal } : {}),
      ...(call.goal ? { goal: call.goal } : {}),
      ...(call.state ? { state: call.state } : {}),
    },
  };
}

/** What a v2 provider returns, from a `CompactionResult` its v1-era code built (the host recomputes digest and stats). */
export function outputFromResult(result: CompactionResult): CompactOutput {
  const calls = result.stats.modelCalls ?? 0;
  return {
    messages: result.messages,
    removed: result.removed,
    ...(result.folded ? { folded: result.folded } : {}),
    warnings: result.warnings ?? result.limitations.map((message): CompactionWarning => ({ type: 'note', message })),
    ...(calls > 0 ? { modelUsage: { inputTokens: result.stats.modelInputTokens ?? 0, outputTokens: result.stats.modelOutputTokens ?? 0, calls } } : {}),
  };
}
