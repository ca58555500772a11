import { createGoalAwareProvider } from './goal-aware-provider.js';

export { GOAL_AWARE_PROVIDER_NAME, MINIMUM_SPAN_TOKENS, USER_FOLD_REASON, createGoalAwareProvider } from './goal-aware-provider.js';
export type { GoalAwareOptions, ResolvedGoalAwareOptions } from './goal-aware-options.js';
export {
  DEFAULT_PRESERVE_RECENT,
  DEFAULT_SUMMARY_MAX_TOKENS,
  DEFAULT_USER_SHARE,
  FALLBACK_MODEL_CONTEXT_TOKENS,
  resolveGoalAwareOptions,
} from './goal-aware-options.js';
export type { FoldedQuote } from './checkpoint-message.js';
export { CHECKPOINT_HEADER_ALLOWANCE, QUOTES_KEY, checkpointTokenBound } from './checkpoint-message.js';
export { spanPrompt, recompressPrompt } from './summary-prompts.js';
export { cutAtSentence } from './fit-to-tokens.js';

/** The goal-aware provider with default options (preserveRecent 2048, summaryMaxTokens 1200). */
const goalAware = createGoalAwareProvider();
export default goalAware;
