import { z } from 'zod';

/** The `compaction` section: when and how the runtime compacts. */
const compactionSection = z
  .object({
    enabled: z.boolean(),
    autoPipeline: z.string().min(1),
    threshold: z.number().gt(0).max(1),
    preserveRecent: z.number().int().min(0),
    summaryMaxTokens: z.number().int().min(16),
    maxToolResultTokens: z.number().int().min(1),
    reasoningStripAgeThreshold: z.number().int().min(0),
    circuitBreakerFailures: z.number().int().min(1),
    userShare: z.number().gt(0).max(1),
    replyReserve: z.number().int().min(16),
    shape: z.enum(['strict', 'openai']),
  })
  .partial()
  .strict();

/** The shape of an ollm config file (every key optional; defaults fill the rest). */
export const ollmConfigSchema = z
  .object({
    model: z.string().min(1),
    api: z.enum(['ollama', 'openai']),
    host: z.string().url(),
    baseURL: z.string().url(),
    contextSize: z.number().int().min(512),
    /** Seconds one model call may take, retries included (unset: the client's 300). */
    timeout: z.number().positive(),
    provider: z.string().min(1),
    compaction: compactionSection,
    /** @deprecated The old name of `compaction`, still read (a file may use either, or both: `compaction` wins). */
    compression: compactionSection,
    /**
     * Each provider's own options, keyed by provider name (`{ "trim": { "previewLines": 0 } }`):
     * the `providerOptions` the context manager and `ollm compact` give each provider.
     */
    providerOptions: z.record(z.string().min(1), z.record(z.string(), z.unknown())),
    snapshots: z
      .object({
        enabled: z.boolean(),
        autoCreate: z.boolean(),
        /** Automatic snapshots kept per session (the newest). */
        retain: z.number().int().min(1),
        /** Manual snapshots kept per session (the newest): counted apart, never pruned by automatic ones. */
        retainManual: z.number().int().min(1),
      })
      .partial()
      .strict(),
    /** Who may set the goal: what `[GOAL]` / locked `[DECISION]` markers in the model's replies may do. */
    goals: z
      .object({
        modelMarkers: z.enum(['apply-when-unset', 'propose', 'apply', 'ignore']),
      })
      .partial()
      .strict(),
    /** The recovery store's retention: `ollm gc`, and the chat at start when past a limit. */
    recovery: z
      .object({
        maxAgeDays: z.number().positive(),
        maxTotalMB: z.number().positive(),
        autoCollect: z.boolean(),
      })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

export type OllmConfigInput = z.infer<typeof ollmConfigSchema>;
