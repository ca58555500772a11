import { createTrimProvider } from './trim-provider.js';

export { additionalPassThresholds, additionalPassToolCallThreshold, createTrimProvider, LOW_SAVING_SHARE } from './trim-provider.js';
export type { ResolvedTrimOptions, TrimOptions } from './trim-options.js';
export { resolveTrimOptions, TRIM_DEFAULTS } from './trim-options.js';
export { stripReasoning } from './strip-reasoning.js';
export { indexToolCalls, truncateToolResults } from './truncate-tool-results.js';
export type { TruncateToolResultsOptions } from './truncate-tool-results.js';
export { buildToolResultPlaceholder, describeToolCall, PLACEHOLDER_PREFIX, SHA_PREFIX_LENGTH } from './tool-result-placeholder.js';
export { foldToolCallInputs } from './fold-tool-call-inputs.js';
export type { FoldToolCallInputsOptions } from './fold-tool-call-inputs.js';
export { foldToolCall, isFoldedToolCall, rawToolCallInput } from './fold-tool-call.js';
export { FOLD_NOTE_PREFIX, foldCommandText } from './fold-command-text.js';
export { compressAssistantMessages } from './compress-assistant-messages.js';
export { extractKeySentences } from './extract-key-sentences.js';
export { scoreSentence } from './sentence-scoring.js';
export type { SentenceScore } from './sentence-scoring.js';
export { TrimWorkspace } from './trim-workspace.js';
export { withContentCache } from './cached-token-counting.js';

/** The default trim provider (gptme's defaults); `createTrimProvider(options)` for others. */
const trim = createTrimProvider();
export default trim;
