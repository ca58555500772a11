import type { LanguageModel } from './language-model.js';
import type { Logger } from '../provider/provider-context.js';

/** Used when neither the options nor the model say how large its window is. */
export const FALLBACK_MODEL_CONTEXT_TOKENS = 8192;

const described = new WeakMap<LanguageModel, number>();

export interface ModelWindowOptions {
  /** The window the user configured (options or `extraConfig`); wins over what the model says. */
  readonly configured?: number | undefined;
  readonly logger: Logger;
  readonly abortSignal?: AbortSignal | undefined;
  /** Names the asking provider in the debug line logged when `describe()` fails. */
  readonly providerName: string;
}

/**
 * A model's usable window: the configured value, else what the model reports (asked once per
 * model object), else 8192. A failed `describe()` is not fatal: the model call that follows
 * reports an unreachable server with its own typed error.
 */
export async function modelWindow(model: LanguageModel, options: ModelWindowOptions): Promise<number> {
  const { configured, logger, abortSignal, providerName } = options;
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
    logger.debug(
      `${providerName}: describe() failed (${error instanceof Error ? error.message : String(error)}); assuming ${FALLBACK_MODEL_CONTEXT_TOKENS} tokens`,
    );
  }
  return FALLBACK_MODEL_CONTEXT_TOKENS;
}
