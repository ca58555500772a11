import { type LanguageModel, type Logger, type MessageShapeRuleSet, type ProviderOptions, type TokenCounter } from '@ollm/core';
import type { ModelMarkerPolicy } from '../goals/model-marker-policy.js';
import type { ProviderRegistry } from '../registry/provider-registry.js';
import type { SessionHistory } from '../storage/session-history.js';
import type { SnapshotStore } from '../storage/snapshot-store.js';

export interface ContextManagerOptions {
  /** The model's context window in tokens. */
  readonly contextSize: number;
  /**
   * Tokens kept back for the model's reply: no request holds more than `contextSize -
   * replyReserve`, and `complete()` sends the reserve as the reply limit (`num_predict` /
   * `max_tokens`). Default 15% of the window.
   */
  readonly replyReserve?: number;
  /**
   * Compact automatically at the threshold. Default true. When false, only what keeps a request
   * inside the window runs before a send (the rule stages and the window guard, no model stage).
   */
  readonly automaticCompaction?: boolean;
  /** @deprecated Use `automaticCompaction` (read when that is not given). */
  readonly automaticCompression?: boolean;
  /** The time new messages are stamped with; tests inject one. Default the system clock. */
  readonly clock?: () => Date;
  readonly systemPrompt?: string;
  /**
   * What `[GOAL]` and `[DECISION] … - LOCKED` markers in the model's replies may do (config
   * `goals.modelMarkers`): `apply-when-unset` (default: applied only while no goal of the user's
   * is set, else reported as a proposal), `propose`, `apply` or `ignore`. `setGoal` is the user's.
   */
  readonly goalMarkers?: ModelMarkerPolicy;
  readonly tokens?: TokenCounter;
  /** Where providers are looked up by name. Default: core's default registry. */
  readonly registry?: ProviderRegistry;
  /** The model a model-based provider (goal-aware, summarize) uses. */
  readonly model?: LanguageModel;
  /** For reliability: the model's name (`llama3.2:3b`) and, when known, its size in billions. */
  readonly modelName?: string;
  readonly modelSizeBillions?: number;
  /** Compact when the conversation reaches threshold x available. Default 0.8. */
  readonly threshold?: number;
  /** After compacting, aim for this share of the window (system prompt excluded). Default 0.5. */
  readonly targetRatio?: number;
  /**
   * Automatic policy as a pipeline: the rule-based stages run first; the stages that use a model
   * (providers that declare `usesModel`) run only when those were not enough. Names not
   * registered are skipped. Default `fold,goal-aware`.
   */
  readonly autoPipeline?: string;
  /**
   * Names of providers to treat as model stages although they do not declare `usesModel` (v1
   * providers written before it existed). Default none.
   */
  readonly modelProviders?: readonly string[];
  /**
   * The message shape the model's API accepts (core's `MESSAGE_SHAPE_RULE_SETS`): every stage's
   * output (rule stages, model stages, the window guard, `compact(name)`) is validated with it,
   * and a stage that breaks a rule of it more often than its input did is rejected like any other
   * integrity break (`compaction-error`, the context unchanged). `openai` (default): nothing empty,
   * tool results right after their call — OpenAI Chat Completions and Ollama. `strict`: also the
   * first message after the system prompt a user message and user turns never touching — the
   * Anthropic Messages API and chat templates that require alternating roles.
   */
  readonly shape?: MessageShapeRuleSet;
  /** Consecutive model failures that open the circuit breaker. Default 3. */
  readonly circuitBreakerFailures?: number;
  readonly maxToolResultTokens?: number;
  readonly reasoningStripAgeThreshold?: number;
  /** Where providers save removed content. */
  readonly logdir?: string;
  /** Options shared by every provider (each provider reads the keys it documents). */
  readonly extraConfig?: Readonly<Record<string, unknown>>;
  /** Each provider's own options, keyed by provider name; over `extraConfig`. */
  readonly providerOptions?: ProviderOptions;
  /** The full record on disk, never compacted. */
  readonly history?: SessionHistory;
  readonly snapshots?: SnapshotStore;
  readonly sessionId?: string;
  /** Take a snapshot before every compaction. Default true when `snapshots` is given. */
  readonly autoSnapshot?: boolean;
  readonly logger?: Logger;
}
