/** What `future-need` measures without options (no imports: bench-mode.ts reads these too). */
export const DEFAULT_STRATEGY_NAMES: readonly string[] = ['fold', 'mask,code-aware,trim', 'trim', 'recency', 'names-list', 'ai-sdk', 'langchain'];
/** Budgets as shares of the prefix's tokens. */
export const DEFAULT_BUDGETS: readonly number[] = [0.5, 0.25, 0.1];
/** Cut points as shares of the steps. */
export const DEFAULT_CUTS: readonly number[] = [0.5, 0.8];
