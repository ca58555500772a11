import type { Message } from '../../messages/message.js';
import type { LanguageModel } from '../../model/language-model.js';
import type { TokenCounting } from '../../tokens/token-counting.js';
import type { FoldedMessage, RemovedContent } from '../compaction-result.js';
import type { GoalState, Logger } from '../provider-context.js';
import type { CompactionWarning } from './compaction-warning.js';

/** Settings every provider reads; provider-specific options come in `providerOptions`. */
export interface CompactSettings {
  /** Tool results larger than this (tokens) may be truncated. Default 2000. */
  readonly maxToolResultTokens: number;
  /** Reasoning is stripped from messages more than this many positions from the end. Default 5. */
  readonly reasoningStripAgeThreshold: number;
  /** Where removed content is saved for recovery (`<logdir>/removed/<sha256>.txt`). */
  readonly logdir?: string;
}

/** One call of `compress`: the conversation, the target, and everything injected by the host. */
export interface CompactCall {
  readonly messages: readonly Message[];
  /** Target size in tokens; undefined: no target (compact what the provider would). */
  readonly limit?: number;
  readonly settings: CompactSettings;
  /** This provider's own options: the host's `providerOptions[name]`. */
  readonly providerOptions: Readonly<Record<string, unknown>>;
  readonly tokens: TokenCounting;
  readonly logger: Logger;
  readonly model?: LanguageModel;
  readonly abortSignal?: AbortSignal;
  readonly goal?: GoalState;
  /** Provider-private state carried between compactions of one conversation. */
  readonly state?: Map<string, unknown>;
}

/** What `compress` returns; the host adds the source digest, token stats and timing. */
export interface CompactOutput {
  readonly messages: readonly Message[];
  readonly removed?: readonly RemovedContent[];
  /** User messages deliberately folded away; the validator lets exactly these be absent. */
  readonly folded?: readonly FoldedMessage[];
  readonly warnings?: readonly CompactionWarning[];
  /** What calls to the model cost, for a provider that `usesModel`. */
  readonly modelUsage?: { readonly inputTokens: number; readonly outputTokens: number; readonly calls: number };
}

/**
 * A context compaction strategy, spec v2.
 *
 * Call order (the host: `compactWith`, a pipeline, the runtime):
 * 1. `compress(call)`, with the provider's own options in `call.providerOptions`.
 * 2. The host computes the source digest, tokens before and after and the time taken, and
 *    validates the output (`validateCompaction`); on any broken rule it raises
 *    `InvalidProviderOutputError` and the caller keeps its messages. Errors thrown inside
 *    `compress` are stamped with the provider's `name` (`ProviderExecutionError`).
 *
 * Contract: never edit system, user or pinned messages (unless listed in `folded`), keep roles,
 * order, timestamps and tool call / result pairing, never return more tokens than were given.
 * Removed content is saved under `settings.logdir` and listed in `removed`.
 */
export interface ContextProviderV2 {
  readonly specificationVersion: 'v2';
  /** Unique name, used by the registry, `--provider` and `providerOptions`. */
  readonly name: string;
  readonly description?: string;
  /**
   * True when `compress` calls a model. The runtime runs such stages last, only when the rule
   * stages were not enough, behind its circuit breaker. Default false.
   */
  readonly usesModel?: boolean;
  compress(call: CompactCall): Promise<CompactOutput>;
}
