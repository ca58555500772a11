import { createGoalAwareProvider } from './goal-aware-provider.js';

export {
  GOAL_AWARE_PROVIDER_NAME,
  MERGE_NOTE_TEXT,
  MINIMUM_GROUP_TOKENS,
  MINIMUM_SPAN_TOKENS,
  USER_FOLD_REASON,
  createGoalAwareProvider,
} from './goal-aware-provider.js';
export { groupByOwner, segmentOwners } from './user-segments.js';
export type { GoalAwareOptions, ResolvedGoalAwareOptions } from './goal-aware-options.js';
export { DEFAULT_PRESERVE_RECENT, DEFAULT_SUMMARY_MAX_TOKENS, DEFAULT_USER_SHARE, resolveGoalAwareOptions } from './goal-aware-options.js';
export type { FoldedQuote } from './checkpoint-message.js';
export { CHECKPOINT_HEADER_ALLOWANCE, QUOTES_KEY, checkpointTokenBound } from './checkpoint-message.js';
export { spanPrompt, recompressPrompt } from './summary-prompts.js';
// Kept for callers that imported them from here before they moved to @ollm/core.
export { FALLBACK_MODEL_CONTEXT_TOKENS, cutAtSentence } from '@ollm/core';

/** The goal-aware provider with default options (preserveRecent 2048, summaryMaxTokens 1200). */
const goalAware = createGoalAwareProvider();
export default goalAware;
