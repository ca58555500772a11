import { z } from 'zod';

/** The shape of an ollm config file (every key optional; defaults fill the rest). */
export const ollmConfigSchema = z
  .object({
    model: z.string().min(1),
    api: z.enum(['ollama', 'openai']),
    host: z.string().url(),
    baseURL: z.string().url(),
    contextSize: z.number().int().min(512),
    provider: z.string().min(1),
    compression: z
      .object({
        enabled: z.boolean(),
        strategy: z.string().min(1),
        autoPipeline: z.string().min(1),
        threshold: z.number().gt(0).max(1),
        preserveRecent: z.number().int().min(0),
        summaryMaxTokens: z.number().int().min(16),
        maxToolResultTokens: z.number().int().min(1),
        reasoningStripAgeThreshold: z.number().int().min(0),
        circuitBreakerFailures: z.number().int().min(1),
        userShare: z.number().gt(0).max(1),
      })
      .partial()
      .strict(),
    snapshots: z
      .object({
        enabled: z.boolean(),
        autoCreate: z.boolean(),
        autoThreshold: z.number().gt(0).max(1),
        retain: z.number().int().min(1),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

export type OllmConfigInput = z.infer<typeof ollmConfigSchema>;

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
    strategy: string;
    autoPipeline: string;
    threshold: number;
    preserveRecent: number;
    summaryMaxTokens: number;
    maxToolResultTokens: number;
    reasoningStripAgeThreshold: number;
    circuitBreakerFailures: number;
    userShare: number;
  };
  snapshots: { enabled: boolean; autoCreate: boolean; autoThreshold: number; retain: number };
}

/** Defaults from the seeds (SPEC section 5); `home` is filled from the environment. */
export const DEFAULT_OLLM_CONFIG: Omit<OllmConfig, 'home'> = {
  model: 'llama3.2:3b',
  api: 'ollama',
  host: 'http://127.0.0.1:11434',
  contextSize: 16_384,
  provider: 'goal-aware',
  compression: {
    enabled: true,
    strategy: 'summarize',
    autoPipeline: 'mask,code-aware,trim,goal-aware',
    threshold: 0.8,
    preserveRecent: 2048,
    summaryMaxTokens: 1200,
    maxToolResultTokens: 2000,
    reasoningStripAgeThreshold: 5,
    circuitBreakerFailures: 3,
    userShare: 0.5,
  },
  snapshots: { enabled: true, autoCreate: true, autoThreshold: 0.8, retain: 20 },
};
