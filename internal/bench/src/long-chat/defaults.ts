/** What the long-chat measure runs without options (no imports: bench-mode.ts reads these too). */
export const DEFAULT_LONG_CHAT_BUDGETS: readonly number[] = [0.5, 0.25, 0.1];
export const DEFAULT_LONG_CHAT_STRATEGIES: readonly string[] = ['fold', 'trim', 'langchain', 'ai-sdk', 'recency'];
