import { InvalidArgumentError } from '@ollm/core';
import { CodeAwareCache } from './cache/code-aware-cache.js';

/** Options of `createCodeAwareProvider`. */
export interface CodeAwareProviderOptions {
  /**
   * Views and code blocks in the last `recentMessages` messages are never folded to signatures
   * (the agent is working with them); only a repeated view among them may become a reference.
   * Default 10 (five tool-call turns).
   */
  readonly recentMessages?: number;
  /** A fold that saves fewer tokens than this is not applied (its placeholder costs too). Default 16. */
  readonly minimumSavingTokens?: number;
  /**
   * Where views, fold plans (tree-sitter parses) and digests found in each content are kept across
   * compactions: by default one cache shared by the process (`sharedCodeAwareCache`, 20,000
   * contents or 64 MiB); `false` derives everything on every call. Results are the same either way.
   */
  readonly cache?: CodeAwareCache | false;
}

export const DEFAULT_RECENT_MESSAGES = 10;
export const DEFAULT_MINIMUM_SAVING_TOKENS = 16;

/** Options with defaults filled in; `config.extraConfig` wins over the factory's options. */
export function resolveCodeAwareOptions(
  options: CodeAwareProviderOptions,
  extraConfig: Readonly<Record<string, unknown>> = {},
): Required<Omit<CodeAwareProviderOptions, 'cache'>> {
  if (options.cache !== undefined && options.cache !== false && !(options.cache instanceof CodeAwareCache)) {
    throw new InvalidArgumentError({ argument: 'cache', message: 'code-aware option cache must be a CodeAwareCache or false' });
  }
  const pick = (key: 'recentMessages' | 'minimumSavingTokens', fallback: number): number => {
    const value = extraConfig[key] ?? options[key] ?? fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new InvalidArgumentError({ argument: key, message: `code-aware option ${key} must be a whole number >= 0, got ${JSON.stringify(value)}` });
    }
    return value;
  };
  return {
    recentMessages: pick('recentMessages', DEFAULT_RECENT_MESSAGES),
    minimumSavingTokens: pick('minimumSavingTokens', DEFAULT_MINIMUM_SAVING_TOKENS),
  };
}
