/**
 * The budget of one context: the window less the reply reserve is what a request may hold
 * (`requestLimit`); `available = requestLimit - system prompt - checkpoints` is what the
 * conversation may use, and automatic compaction starts at `threshold x available`.
 */
export interface ContextBudget {
  readonly contextSize: number;
  /** Tokens kept back for the model's reply, sent as `num_predict` / `max_tokens`. */
  readonly replyReserve: number;
  /** The most a request may hold: `contextSize - replyReserve`. */
  readonly requestLimit: number;
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
  replyReserve: number;
  systemTokens: number;
  checkpointTokens: number;
  conversationTokens: number;
  threshold: number;
}): ContextBudget {
  const requestLimit = Math.max(0, input.contextSize - input.replyReserve);
  const available = Math.max(0, requestLimit - input.systemTokens - input.checkpointTokens);
  return {
    contextSize: input.contextSize,
    replyReserve: input.replyReserve,
    requestLimit,
    systemTokens: input.systemTokens,
    checkpointTokens: input.checkpointTokens,
    conversationTokens: input.conversationTokens,
    available,
    trigger: Math.floor(available * input.threshold),
    totalTokens: input.systemTokens + input.checkpointTokens + input.conversationTokens,
  };
}
