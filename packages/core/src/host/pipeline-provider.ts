import type { Message } from '../messages/message.js';
import { computeSourceDigest } from '../digest/source-digest.js';
import { InvalidArgumentError } from '../errors/invalid-argument-error.js';
import { OllmError } from '../errors/ollm-error.js';
import { ProviderExecutionError } from '../errors/provider-execution-error.js';
import { validateCompaction } from '../integrity/validate-compaction.js';
import type { CompactionResult, FoldedMessage, RemovedContent } from '../provider/compaction-result.js';
import type { CompressionConfig } from '../provider/compression-config.js';
import type { ContextProvider } from '../provider/v1/context-provider-v1.js';
import type { ProviderContext } from '../provider/provider-context.js';

/**
 * Composes providers into one: stages run in order, each on the previous stage's output, and the
 * pipeline stops as soon as the conversation is under `config.limit`. Every stage's output is
 * validated; results are merged (removed pieces, limitations and stats add up).
 */
export function createPipelineProvider(stages: readonly ContextProvider[]): ContextProvider {
  if (stages.length === 0) throw new InvalidArgumentError({ argument: 'stages', message: 'A pipeline needs at least one provider.' });
  const name = stages.map((stage) => stage.name).join(',');
  return {
    specificationVersion: 'v1',
    name,
    description: `Pipeline: ${stages.map((stage) => stage.name).join(' -> ')}, stopping once under the limit`,
    shouldCompress: (messages, config, context) => stages.some((stage) => stage.shouldCompress(messages, config, context)),
    async compress(messages: readonly Message[], config: CompressionConfig, context: ProviderContext): Promise<CompactionResult> {
      const started = performance.now();
      const tokensBefore = context.tokens.countMessages(messages);
      let current = messages;
      const removed: RemovedContent[] = [];
      const limitations: string[] = [];
      const folded: FoldedMessage[] = [];
      let modelInputTokens = 0;
      let modelOutputTokens = 0;
      let modelCalls = 0;
      const ran: string[] = [];
      for (const stage of stages) {
        if (config.limit !== undefined && context.tokens.countMessages(current) <= config.limit) break;
        const result = await runStage(stage, current, config, context);
        validateCompaction(stage.name, current, result, context.tokens);
        ran.push(stage.name);
        current = result.messages;
        removed.push(...result.removed);
        limitations.push(...result.limitations.map((text) => `${stage.name}: ${text}`));
        folded.push(...(result.folded ?? []));
        modelInputTokens += result.stats.modelInputTokens ?? 0;
        modelOutputTokens += result.stats.modelOutputTokens ?? 0;
        modelCalls += result.stats.modelCalls ?? 0;
      }
      const tokensAfter = context.tokens.countMessages(current);
      if (config.limit !== undefined && tokensAfter > config.limit) {
        limitations.push(`pipeline: ${tokensAfter} tokens after ${ran.join(', ')}; the limit ${config.limit} was not reached`);
      }
      return {
        messages: current,
        sourceDigest: computeSourceDigest(messages),
        coveredThrough: messages.length - 1,
        removed,
        limitations,
        folded,
        stats: {
          tokensBefore,
          tokensAfter,
          timeMs: performance.now() - started,
          ...(modelCalls > 0 ? { modelInputTokens, modelOutputTokens, modelCalls } : {}),
        },
      };
    },
  };
}

/** Stamps a stage's own error with the stage's name, not the pipeline's (`mask,trim`). */
async function runStage(stage: ContextProvider, messages: readonly Message[], config: CompressionConfig, context: ProviderContext): Promise<CompactionResult> {
  try {
    return await stage.compress(messages, config, context);
  } catch (error) {
    if (OllmError.isInstance(error)) throw error;
    throw new ProviderExecutionError({ provider: stage.name, cause: error });
  }
}
