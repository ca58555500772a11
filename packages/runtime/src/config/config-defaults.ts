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
  provider: string;
  home: string;
  compression: {
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
  };
  snapshots: { enabled: boolean; autoCreate: boolean; retain: number };
}

/** The defaults (docs/runtime.md lists them); `home` is filled from the environment. */
export const DEFAULT_OLLM_CONFIG: Omit<OllmConfig, 'home'> = {
  model: 'llama3.2:3b',
  api: 'ollama',
  host: 'http://127.0.0.1:11434',
  contextSize: 16_384,
  provider: 'goal-aware',
  compression: {
    enabled: true,
    autoPipeline: 'mask,code-aware,trim,goal-aware',
    threshold: 0.8,
    preserveRecent: 2048,
    summaryMaxTokens: 1200,
    maxToolResultTokens: 2000,
    reasoningStripAgeThreshold: 5,
    circuitBreakerFailures: 3,
    userShare: 0.5,
    // replyReserve is left unset: its default depends on the window, known only once connected.
  },
  snapshots: { enabled: true, autoCreate: true, retain: 20 },
};
