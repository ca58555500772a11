/** The budget of the seed: available = contextSize - system prompt - checkpoints; trigger at threshold x available. */
export interface ContextBudget {
  readonly contextSize: number;
  readonly systemTokens: number;
  readonly checkpointTokens: number;
  /** Tokens of the conversation messages (everything but the system prompt and checkpoints). */
  readonly conversationTokens: number;
  readonly available: number;
  readonly trigger: number;
  /** What is sent to the model: system + checkpoints + conversation. */
  readonly totalTokens: number;
}

export function computeBudget(input: {
  contextSize: number;
  systemTokens: number;
  checkpointTokens: number;
  conversationTokens: number;
  threshold: number;
}): ContextBudget {
  const available = Math.max(0, input.contextSize - input.systemTokens - input.checkpointTokens);
  return {
    contextSize: input.contextSize,
    systemTokens: input.systemTokens,
    checkpointTokens: input.checkpointTokens,
    conversationTokens: input.conversationTokens,
    available,
    trigger: Math.floor(available * input.threshold),
    totalTokens: input.systemTokens + input.checkpointTokens + input.conversationTokens,
  };
}
