import { InvalidArgumentError } from '@ollm/core';

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
}

export const DEFAULT_RECENT_MESSAGES = 10;
export const DEFAULT_MINIMUM_SAVING_TOKENS = 16;

/** Options with defaults filled in; `config.extraConfig` wins over the factory's options. */
export function resolveCodeAwareOptions(
  options: CodeAwareProviderOptions,
  extraConfig: Readonly<Record<string, unknown>> = {},
): Required<CodeAwareProviderOptions> {
  const pick = (key: keyof CodeAwareProviderOptions, fallback: number): number => {
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
