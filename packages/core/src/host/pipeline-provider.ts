import type { Message } from '../messages/message.js';
import { computeSourceDigest } from '../digest/source-digest.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import type { MessageShapeRuleSet } from '../integrity/message-shape.js';
import type { CompactionResult } from '../provider/compaction-result.js';
import type { CompressionConfig } from '../provider/compression-config.js';
import { providerUsesModel, type ContextProvider } from '../provider/context-provider.js';
import type { ProviderContext } from '../provider/provider-context.js';
import type { CompactionWarning } from '../provider/v2/compaction-warning.js';
import type { ContextProviderV2 } from '../provider/v2/context-provider-v2.js';
import { mergeStages } from './merge-stages.js';
import { withLazyDigest } from './build-compaction-result.js';
import type { ProviderOptions } from './run-provider.js';
import { runStages } from './run-stages.js';
import { outputFromResult, v1Arguments } from './v1-arguments.js';

/** A provider made of stages: the host runs them with the stage runner, each with its own options. */
export interface PipelineProvider extends ContextProviderV2 {
  readonly stages: readonly ContextProvider[];
}

export function isPipelineProvider(provider: ContextProvider): provider is PipelineProvider {
  return provider.specificationVersion === 'v2' && Array.isArray((provider as Partial<PipelineProvider>).stages);
}

/**
 * Composes providers into one: stages run in order, each on the previous stage's output, and the
 * pipeline stops as soon as the conversation is under the limit. Every stage's output is
 * validated; results are merged (removed pieces, limitations prefixed with the stage's name, model
 * stats). It uses a model when any stage does.
 */
export function createPipelineProvider(stages: readonly ContextProvider[]): PipelineProvider {
  if (stages.length === 0) throw new InvalidArgumentError({ argument: 'stages', message: 'A pipeline needs at least one provider.' });
  const name = stages.map((stage) => stage.name).join(',');
  return {
    specificationVersion: 'v2',
    name,
    description: `Pipeline: ${stages.map((stage) => stage.name).join(' -> ')}, stopping once under the limit`,
    usesModel: stages.some(providerUsesModel),
    stages,
    // Called directly (not through a host), the pipeline's own options are shared by its stages.
    async compress(call) {
      const { config, context } = v1Arguments(call);
      return outputFromResult(await runPipeline(this as PipelineProvider, call.messages, config, context));
    },
  };
}

/**
 * Runs a pipeline's stages with the stage runner; the merged result covers the whole pipeline.
 * Each stage's output must keep `shape` (default `openai`) against its own input.
 */
export async function runPipeline(
  pipeline: PipelineProvider,
  messages: readonly Message[],
  config: CompressionConfig,
  context: ProviderContext,
  providerOptions: ProviderOptions = {},
  shape?: MessageShapeRuleSet,
): Promise<CompactionResult> {
  const started = performance.now();
  const { applied } = await runStages({
    stages: pipeline.stages,
    messages,
    config,
    context,
    providerOptions,
    keepEvery: true,
    ...(shape ? { shape } : {}),
  });
  const tokensBefore = context.tokens.countMessages(messages);
  if (applied.length === 0) {
    return {
      messages,
      sourceDigest: computeSourceDigest(messages),
      coveredThrough: messages.length - 1,
      removed: [],
      limitations: [],
      stats: { tokensBefore, tokensAfter: tokensBefore, timeMs: performance.now() - started },
    };
  }
  const { result } = mergeStages(applied, { labelLimitations: true });
  const tokensAfter = context.tokens.countMessages(result.messages);
  const limitations = [...result.limitations];
  // A stage's own limit-not-reached says nothing once a later stage went on: the pipeline says its own.
  const warnings: CompactionWarning[] = (result.warnings ?? []).filter((warning) => warning.type !== 'limit-not-reached');
  if (config.limit !== undefined && tokensAfter > config.limit) {
    limitations.push(`pipeline: ${tokensAfter} tokens after ${applied.map((stage) => stage.provider).join(', ')}; the limit ${config.limit} was not reached`);
    warnings.push({ type: 'limit-not-reached', tokens: tokensAfter, limit: config.limit });
  }
  const modelCalls = result.stats.modelCalls ?? 0;
  const final = withLazyDigest(result, () => result.sourceDigest);
  return Object.assign(final, {
    limitations,
    warnings,
    stats: {
      tokensBefore,
      tokensAfter,
      timeMs: performance.now() - started,
      ...(modelCalls > 0 ? { modelInputTokens: result.stats.modelInputTokens ?? 0, modelOutputTokens: result.stats.modelOutputTokens ?? 0, modelCalls } : {}),
    },
  });
}
