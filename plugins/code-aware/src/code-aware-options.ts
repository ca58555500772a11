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
