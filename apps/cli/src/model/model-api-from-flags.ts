import { InvalidArgumentError } from '@ollm/core';
import { MODEL_APIS, type ModelApi } from './model-settings.js';

/** The model flags that choose the protocol. */
export interface ModelApiFlags {
  /** `--api`, as typed. */
  readonly api?: string;
  /** `--base-url`, as typed. */
  readonly baseUrl?: string;
}

/**
 * The protocol the flags choose, the same for the chat and `ollm compact`: `--api` when given (an
 * unknown one is exit 2), else `openai` when `--base-url` is given (nothing else would use it),
 * else undefined: the caller's default (the chat's config, compact's `ollama`). `--api ollama
 * --base-url URL` stays ollama, the URL unused.
 */
export function modelApiFromFlags(flags: ModelApiFlags): ModelApi | undefined {
  if (flags.api !== undefined) {
    if (!(MODEL_APIS as readonly string[]).includes(flags.api)) {
      throw new InvalidArgumentError({ argument: 'api', message: `Unknown --api "${flags.api}". APIs: ${MODEL_APIS.join(', ')}.` });
    }
    return flags.api as ModelApi;
  }
  return flags.baseUrl !== undefined ? 'openai' : undefined;
}
