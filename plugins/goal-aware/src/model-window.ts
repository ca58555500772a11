import type { LanguageModel, Logger } from '@ollm/core';
import { FALLBACK_MODEL_CONTEXT_TOKENS } from './goal-aware-options.js';

const described = new WeakMap<LanguageModel, number>();

/**
 * The summariser model's window: the configured value, else what the model reports (asked once
 * per model object), else 8192. A failed `describe()` is not fatal: the summary call that follows
 * reports an unreachable server with its own typed error.
 */
export async function modelWindow(model: LanguageModel, configured: number | undefined, logger: Logger, abortSignal?: AbortSignal): Promise<number> {
  if (configured !== undefined) return configured;
  const known = described.get(model);
  if (known !== undefined) return known;
  if (!model.describe) return FALLBACK_MODEL_CONTEXT_TOKENS;
  try {
    const { contextLength } = await model.describe(abortSignal ? { abortSignal } : {});
    if (contextLength !== undefined && contextLength > 0) {
      described.set(model, contextLength);
      return contextLength;
    }
  } catch (error) {
    abortSignal?.throwIfAborted();
    logger.debug(`goal-aware: describe() failed (${error instanceof Error ? error.message : String(error)}); assuming ${FALLBACK_MODEL_CONTEXT_TOKENS} tokens`);
  }
  return FALLBACK_MODEL_CONTEXT_TOKENS;
}
