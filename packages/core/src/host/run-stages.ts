import type { MessageShapeRuleSet } from '../integrity/message-shape.js';
import { validateCompaction } from '../integrity/validate-compaction.js';
import type { Message } from '../messages/message.js';
import type { CompactionResult } from '../provider/compaction-result.js';
import type { CompressionConfig } from '../provider/compression-config.js';
import type { ContextProvider } from '../provider/context-provider.js';
import type { ProviderContext } from '../provider/provider-context.js';
import type { AppliedStage } from './merge-stages.js';
import { runProvider, type ProviderOptions } from './run-provider.js';

export interface RunStagesOptions {
  readonly stages: readonly ContextProvider[];
  readonly messages: readonly Message[];
  readonly config: CompressionConfig;
  readonly context: ProviderContext;
  readonly providerOptions?: ProviderOptions;
  /** The message shape every stage's output must keep (default runStage only); default `openai`. */
  readonly shape?: MessageShapeRuleSet;
  /** Checked before each stage; default: while over `config.limit` (always, without a limit). */
  readonly shouldContinue?: (messages: readonly Message[]) => boolean;
  /**
   * Runs one stage; default: `runProvider` then `validateCompaction`. The runtime passes its own,
   * which compacts the live context (messages added meanwhile follow the stage's output).
   */
  readonly runStage?: (stage: ContextProvider, messages: readonly Message[]) => Promise<CompactionResult>;
  /** A stage's error: return `'skip'` to go on with the next stage; by default it is thrown. */
  readonly onError?: (stage: ContextProvider, error: unknown) => 'skip' | 'throw';
  /** A stage that ran but saved nothing (its output is not kept). */
  readonly onNoSaving?: (stage: ContextProvider, result: CompactionResult) => void;
  /** Keep every validated stage's output, also one that saved nothing (a pipeline reports them all). */
  readonly keepEvery?: boolean;
  /** A stage whose output was kept. */
  readonly onApplied?: (stage: AppliedStage) => void;
}

/**
 * The one stage runner: runs stages in order, each on the previous one's output, stops as soon
 * as `shouldContinue` says so (by default, once under the limit), validates every output, keeps
 * only outputs that are smaller, and returns the stages that changed the conversation, ready for
 * `mergeStages`. Used by pipelines (`createPipelineProvider`) and the runtime's automatic policy.
 */
export async function runStages(options: RunStagesOptions): Promise<{ messages: readonly Message[]; applied: AppliedStage[] }> {
  const { config, context } = options;
  const shouldContinue = options.shouldContinue ?? ((messages) => config.limit === undefined || context.tokens.countMessages(messages) > config.limit);
  const runStage =
    options.runStage ??
    (async (stage: ContextProvider, messages: readonly Message[]) => {
      const result = await runProvider(stage, messages, config, context, options.providerOptions);
      validateCompaction(stage.name, messages, result, context.tokens, options.shape ? { shape: options.shape } : {});
      return result;
    });
  let current = options.messages;
  const applied: AppliedStage[] = [];
  for (const stage of options.stages) {
    if (!shouldContinue(current) || context.abortSignal?.aborted) break;
    let result: CompactionResult;
    try {
      result = await runStage(stage, current);
    } catch (error) {
      if (options.onError?.(stage, error) === 'skip') continue;
      throw error;
    }
    if (!options.keepEvery && result.stats.tokensAfter >= result.stats.tokensBefore) {
      options.onNoSaving?.(stage, result);
      continue;
    }
    const done = { provider: stage.name, result };
    applied.push(done);
    options.onApplied?.(done);
    current = result.messages;
  }
  return { messages: current, applied };
}
