import type { ProviderOptions } from '@ollm/core';
import type { ModelMarkerPolicy } from '../goals/model-marker-policy.js';
import type { OllmConfigInput } from './config-schema.js';

export type { OllmConfigInput };

export interface OllmConfig {
  model: string;
  api: 'ollama' | 'openai';
  host: string;
  baseURL?: string;
  /** Read from OPENAI_API_KEY only; never written anywhere. */
  apiKey?: string;
  contextSize: number;
  /** Seconds one model call may take, retries included; unset: the client's default (300). */
  timeout?: number;
  provider: string;
  home: string;
  /** When and how the runtime compacts (`compression` in files written for ollm 0.1 still works). */
  compaction: {
    enabled: boolean;
    autoPipeline: string;
    threshold: number;
    preserveRecent: number;
    summaryMaxTokens: number;
    maxToolResultTokens: number;
    reasoningStripAgeThreshold: number;
    circuitBreakerFailures: number;
    userShare: number;
    /** Tokens kept back for the model's reply; unset: the runtime keeps 15% of the window. */
    replyReserve?: number;
    /** Message-shape rules every compacted context keeps: `strict` (chat templates, Anthropic) or `openai`. */
    shape: 'strict' | 'openai';
  };
  /** Each provider's own options, keyed by provider name; what a provider does not read it ignores. */
  providerOptions: ProviderOptions;
  snapshots: { enabled: boolean; autoCreate: boolean; retain: number; retainManual: number };
  /**
   * What the model's `[GOAL]` and `[DECISION] … - LOCKED` markers may do (the ContextManager's
   * `goalMarkers`): `apply-when-unset` (applied only while the user has set no goal; shown either
   * way), `propose` (shown, never applied), `apply` (applied over the user's goal) or `ignore`.
   */
  goals: { modelMarkers: ModelMarkerPolicy };
  /**
   * The recovery store's retention (`ollm gc`, docs/recovery.md): entries older than
   * `maxAgeDays`, then the oldest while the store is over `maxTotalMB`, are deleted, except what
   * a session's active context or a snapshot still references. `autoCollect`: the chat collects
   * at start when the store is past either limit.
   */
  recovery: { maxAgeDays: number; maxTotalMB: number; autoCollect: boolean };
  /** @deprecated Use `compaction`: the same object under its old name (not enumerated, so not printed). */
  readonly compression: OllmConfig['compaction'];
}

/** The defaults (docs/runtime.md lists them); `home` is filled from the environment. */
export const DEFAULT_OLLM_CONFIG: Omit<OllmConfig, 'home' | 'compression'> = {
  model: 'llama3.2:3b',
  api: 'ollama',
  host: 'http://127.0.0.1:11434',
  contextSize: 16_384,
  provider: 'goal-aware',
  compaction: {
    enabled: true,
    autoPipeline: 'fold,goal-aware',
    threshold: 0.8,
    preserveRecent: 2048,
    summaryMaxTokens: 1200,
    maxToolResultTokens: 2000,
    reasoningStripAgeThreshold: 5,
    circuitBreakerFailures: 3,
    userShare: 0.5,
    // Local servers (Ollama, llama.cpp, vLLM, LM Studio) apply the model's chat template, which may refuse anything else.
    shape: 'strict',
    // replyReserve is left unset: its default depends on the window, known only once connected.
  },
  providerOptions: {},
  snapshots: { enabled: true, autoCreate: true, retain: 20, retainManual: 100 },
  goals: { modelMarkers: 'apply-when-unset' },
  recovery: { maxAgeDays: 30, maxTotalMB: 500, autoCollect: true },
};
