// Messages
export type { Message, MessageRole } from './messages/message.js';
export { MESSAGE_ROLES } from './messages/message.js';
export type { FilePart, MessagePart, MessagePartType, ReasoningPart, TextPart, ToolCallPart, ToolResultPart } from './messages/message-part.js';
export {
  messageText,
  partText,
  reasoningParts,
  renderMessage,
  textPart,
  toolCallArguments,
  toolCalls,
  toolResults,
  withParts,
} from './messages/message-helpers.js';
export { createMessageId } from './messages/message-id.js';
export { toolTurnGroups } from './messages/tool-turns.js';

// Errors
export { OllmError } from './errors/ollm-error.js';
export { NoSuchProviderError } from './errors/no-such-provider-error.js';
export { PluginLoadError } from './errors/plugin-load-error.js';
export { NoModelError } from './errors/no-model-error.js';
export { InvalidProviderOutputError } from './errors/invalid-provider-output-error.js';
export { InvalidTranscriptError } from './errors/invalid-transcript-error.js';
export { ProviderExecutionError } from './errors/provider-execution-error.js';
export { InvalidArgumentError } from './errors/invalid-argument-error.js';
export type { ModelUnavailableReason } from './errors/model-unavailable-error.js';
export { ModelUnavailableError } from './errors/model-unavailable-error.js';
export type { ContextOverflowRefusal } from './errors/context-overflow-refusal.js';
export { readContextOverflowRefusal } from './errors/context-overflow-refusal.js';
export { MODEL_RESPONSE_EXCERPT_LENGTH, ModelResponseError } from './errors/model-response-error.js';

// Tokens
export type { TokenEncoding, Tokenizer } from './tokens/tokenizer.js';
export { createTokenizer, encodingForModel } from './tokens/bpe-tokenizer.js';
export type { ContentTokenCacheLimits } from './tokens/content-token-cache.js';
export { ContentTokenCache, DEFAULT_CONTENT_TOKEN_CACHE_LIMITS, sharedContentTokenCache } from './tokens/content-token-cache.js';
export type { TokenCounterOptions } from './tokens/token-counter.js';
export { MESSAGE_OVERHEAD_TOKENS, TOOL_CALL_OVERHEAD_TOKENS, TokenCounter } from './tokens/token-counter.js';
export { cannotExceedTokens, countTextUpTo, type TokenCounting } from './tokens/token-counting.js';
export { TokenLedger } from './tokens/token-ledger.js';

// The provider spec: v2, and v1 as first shipped (hosts take both)
export type { ContextProvider } from './provider/context-provider.js';
export { isContextProvider, isContextProviderV2, providerUsesModel } from './provider/context-provider.js';
export type { ContextProviderV1 } from './provider/v1/context-provider-v1.js';
export { isContextProviderV1 } from './provider/v1/context-provider-v1.js';
export type { CompactCall, CompactOutput, CompactSettings, ContextProviderV2 } from './provider/v2/context-provider-v2.js';
export type { CompactionWarning } from './provider/v2/compaction-warning.js';
export { describeWarning } from './provider/v2/compaction-warning.js';
export type { CompressionConfig } from './provider/compression-config.js';
export { DEFAULT_COMPRESSION_CONFIG, resolveCompressionConfig } from './provider/compression-config.js';
export type { CompactionResult, CompactionStats, FoldedMessage, RemovedContent } from './provider/compaction-result.js';
export type { GoalPriority, GoalState, GoalStatus, Logger, ProviderContext } from './provider/provider-context.js';
export { silentLogger } from './provider/provider-context.js';
export type { LanguageModel, LanguageModelCallOptions, LanguageModelResult, LanguageModelUsage } from './model/language-model.js';
export type { ModelWindowOptions } from './model/model-window.js';
export { FALLBACK_MODEL_CONTEXT_TOKENS, modelWindow } from './model/model-window.js';

// Model calls: retries, timeouts, connection errors (shared by the @ollm/model-* packages)
export type { RetryDecision, RetryEvent, RetryOptions, RetryPolicy } from './model/retry.js';
export { DEFAULT_RETRY_POLICY, backoffDelay, isRetryableModelError, retryWithBackoff } from './model/retry.js';
export { parseRetryAfter } from './model/retry-after.js';
export type { CallSignal } from './model/call-signal.js';
export { createCallSignal } from './model/call-signal.js';
export { displayURL, errorCode, isConnectionError } from './model/connection-error.js';
export type { ModelCallOptions, ModelRetrySettings } from './model/model-call.js';
export { runModelCall } from './model/model-call.js';

// Digest and recovery
export { CANONICAL_FORM_VERSION, canonicalJson, canonicalMessage } from './digest/canonical-form.js';
export { computeSourceDigest, sha256Hex } from './digest/source-digest.js';
export { nestsDeeperThan } from './json/nests-deeper-than.js';
export { formatInteger } from './text/format-integer.js';
export type { RemovedEntry, SavedContent } from './recovery/recovery-store.js';
export { RECOVERY_FOLDER, REDACTED_MARKER_SUFFIX, readRemovedContent, readRemovedEntry, saveRemovedContent } from './recovery/recovery-store.js';

// Secrets: the one redaction step every writer goes through
export {
  MINIMUM_SECRET_LENGTH,
  SecretRedactor,
  type SecretRedactorOptions,
  type UrlCredentials,
  forgetRegisteredSecrets,
  redactSecrets,
  registerSecret,
  registeredSecrets,
  stringifyRedacted,
} from './secrets/secret-redactor.js';
export { REDACTED, stripUrlCredentials } from './secrets/strip-url-credentials.js';
export type { RedactingOutput, WritableOutput } from './secrets/redacting-output.js';
export { createRedactingOutput } from './secrets/redacting-output.js';

// Integrity
export type { IntegrityRule, IntegrityViolation } from './integrity/integrity-rule.js';
export { INTEGRITY_RULES } from './integrity/integrity-rule.js';
export type { IntegrityOptions } from './integrity/validate-compaction.js';
export { findIntegrityViolations, validateCompaction } from './integrity/validate-compaction.js';
export type { MessageShapeRegression, MessageShapeRule, MessageShapeRuleSet, MessageShapeViolation } from './integrity/message-shape.js';
export {
  DEFAULT_MESSAGE_SHAPE,
  MESSAGE_SHAPE_RULE_SETS,
  MESSAGE_SHAPE_RULES,
  checkMessageShape,
  findMessageShapeRegressions,
  hasMessageContent,
  isMessageShapeRuleSet,
  turnOf,
} from './integrity/message-shape.js';
export { findToolPairingProblem } from './integrity/tool-pairing.js';
export { sameMessageObjects } from './integrity/messages-memo.js';

// Host
export type { CompactOptions } from './host/compact-with.js';
export { compactWith, createProviderContext } from './host/compact-with.js';
export type { PipelineProvider } from './host/pipeline-provider.js';
export { createPipelineProvider, isPipelineProvider, runPipeline } from './host/pipeline-provider.js';
export type { Pipeline } from './host/pipeline.js';
export { parsePipeline } from './host/pipeline.js';
export type { ProviderOptions } from './host/run-provider.js';
export { runProvider } from './host/run-provider.js';
export type { RunStagesOptions } from './host/run-stages.js';
export { runStages } from './host/run-stages.js';
export { outputFromResult, v1Arguments } from './host/v1-arguments.js';
export type { AppliedStage } from './host/merge-stages.js';
export { mergeStages } from './host/merge-stages.js';
export type { BuildCompactionResultOptions } from './host/build-compaction-result.js';
export { buildCompactionResult } from './host/build-compaction-result.js';
export { cutAtSentence, fitToTokens, tokenPrefix } from './host/fit-to-tokens.js';
export { splitIntoChunks } from './host/split-into-chunks.js';

// Protocol shared by the runtime and providers: checkpoint metadata, goal markers, quoted text in prompts
export type { Checkpoint } from './protocol/checkpoint.js';
export { checkpointOf, isCheckpointMessage } from './protocol/checkpoint.js';
export type { ArtifactAction, CheckpointStatus, GoalUpdate } from './protocol/goal-markers.js';
export { parseGoalBlock, parseGoalMarker, renderGoalBlock } from './protocol/goal-markers.js';
export type { FittedQuoteLines } from './protocol/quote-lines.js';
export { fitQuoteLines } from './protocol/quote-lines.js';
export { givenTokens, isFoldableUserTurn, USER_TURN_SHARE, userTurnsMayFold } from './protocol/user-turn-rule.js';
export { DATA_BLOCK_NAMES, dataBlock, escapeDelimiterLookalikes, escapeQuotedText } from './protocol/quoted-text.js';

// Files
export { writeFileAtomic } from './files/write-file-atomic.js';
