// Messages
export type { Message, MessageRole } from './messages/message.js';
export { MESSAGE_ROLES } from './messages/message.js';
export type {
  FilePart,
  MessagePart,
  MessagePartType,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from './messages/message-part.js';
export {
  messageText,
  partText,
  reasoningParts,
  renderMessage,
  textPart,
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
export { InvalidProviderOutputError } from './errors/invalid-provider-output-error.js';
export { InvalidTranscriptError } from './errors/invalid-transcript-error.js';
export { ProviderExecutionError } from './errors/provider-execution-error.js';
export { InvalidArgumentError } from './errors/invalid-argument-error.js';
export type { ModelUnavailableReason } from './errors/model-unavailable-error.js';
export { ModelUnavailableError } from './errors/model-unavailable-error.js';
export { MODEL_RESPONSE_EXCERPT_LENGTH, ModelResponseError } from './errors/model-response-error.js';

// Tokens
export type { TokenEncoding, Tokenizer } from './tokens/tokenizer.js';
export { createTokenizer, encodingForModel } from './tokens/bpe-tokenizer.js';
export { MESSAGE_OVERHEAD_TOKENS, TOOL_CALL_OVERHEAD_TOKENS, TokenCounter } from './tokens/token-counter.js';
export { TokenLedger } from './tokens/token-ledger.js';

// Provider spec v1
export type { ContextProvider } from './spec/context-provider.js';
export { isContextProvider } from './spec/context-provider.js';
export type { CompressionConfig } from './spec/compression-config.js';
export { DEFAULT_COMPRESSION_CONFIG, resolveCompressionConfig } from './spec/compression-config.js';
export type {
  CompactionResult,
  CompactionStats,
  FoldedMessage,
  RemovedContent,
} from './spec/compaction-result.js';
export type { GoalState, Logger, ProviderContext } from './spec/provider-context.js';
export { silentLogger } from './spec/provider-context.js';
export type {
  LanguageModel,
  LanguageModelCallOptions,
  LanguageModelResult,
  LanguageModelUsage,
} from './spec/language-model.js';
export type { ModelWindowOptions } from './spec/model-window.js';
export { FALLBACK_MODEL_CONTEXT_TOKENS, modelWindow } from './spec/model-window.js';

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
export type { SavedContent } from './recovery/recovery-store.js';
export { RECOVERY_FOLDER, readRemovedContent, saveRemovedContent } from './recovery/recovery-store.js';

// Integrity
export type { IntegrityRule, IntegrityViolation } from './integrity/integrity-rule.js';
export { INTEGRITY_RULES } from './integrity/integrity-rule.js';
export { findIntegrityViolations, validateCompaction } from './integrity/validate-compaction.js';
export { findToolPairingProblem } from './integrity/tool-pairing.js';

// Host
export type { CompactOptions } from './host/compact-with.js';
export { compactWith, createProviderContext } from './host/compact-with.js';
export { createPipelineProvider } from './host/pipeline-provider.js';
export type { BuildCompactionResultOptions } from './host/build-compaction-result.js';
export { buildCompactionResult } from './host/build-compaction-result.js';
export { cutAtSentence, fitToTokens, tokenPrefix } from './host/fit-to-tokens.js';
export { splitIntoChunks } from './host/split-into-chunks.js';

// Registry and discovery
export type { RegisteredProvider } from './registry/provider-registry.js';
export {
  ProviderRegistry,
  defaultRegistry,
  getContextProvider,
  listProviders,
  registerProvider,
} from './registry/provider-registry.js';
export type { DiscoverOptions, DiscoveredPlugin, DiscoveryReport } from './registry/discover-plugins.js';
export { PLUGIN_KEYWORD, discoverPlugins, findNearestManifest } from './registry/discover-plugins.js';

// Goals, reliability, events
export type { GoalUpdate } from './goals/goal-manager.js';
export { GoalManager, parseGoalMarker, renderGoalBlock } from './goals/goal-manager.js';
export type { Reliability, ReliabilityLevel } from './reliability/reliability.js';
export { computeReliability, parseModelSize, reliabilityLevel, reliabilityWarning } from './reliability/reliability.js';
export type { ContextEventListener, ContextEventName, ContextEvents } from './events/context-events.js';
export { ContextEventEmitter } from './events/context-events.js';

// Storage: session history, snapshots, ids
export { ollmHome, resolveInside, validateStorageId } from './storage/storage-id.js';
export { withFileLock } from './storage/file-lock.js';
export { redactSecrets } from './storage/redact-secrets.js';
export { writeFileAtomic } from './storage/write-file-atomic.js';
export type { SessionEntry, SessionHistoryOptions, SessionRecord } from './storage/session-history.js';
export { HISTORY_FILE, SessionHistory, deleteSession, listSessions, readSession, readSessionFile } from './storage/session-history.js';
export type { ExportedSession } from './storage/export-session.js';
export { exportSession } from './storage/export-session.js';
export type { ContextSnapshot, ContextState, SnapshotSummary } from './storage/snapshot-store.js';
export { SnapshotStore } from './storage/snapshot-store.js';
export { SessionInUseError } from './errors/session-in-use-error.js';
export type { SessionLock, SessionLockOptions, SessionLockOwner } from './storage/session-lock.js';
export { SESSION_LOCK_FILE, acquireSessionLock } from './storage/session-lock.js';

// Config
export { InvalidConfigError } from './errors/invalid-config-error.js';
export type { OllmConfig, OllmConfigInput } from './config/config-defaults.js';
export { DEFAULT_OLLM_CONFIG } from './config/config-defaults.js';
export type { LoadConfigOptions, LoadedConfig } from './config/load-config.js';
export { loadConfig } from './config/load-config.js';

// Runtime
export type { Checkpoint } from './runtime/checkpoint-metadata.js';
export { checkpointOf, isCheckpointMessage } from './runtime/checkpoint-metadata.js';
export { CircuitBreaker } from './runtime/circuit-breaker.js';
export type { CalibrationReading } from './runtime/token-calibration.js';
export { CALIBRATION_CEILING, CALIBRATION_FLOOR, CALIBRATION_OUTLIER_RATIO, TokenCalibration } from './runtime/token-calibration.js';
export { DEFAULT_REPLY_RESERVE_SHARE, resolveReplyReserve } from './runtime/reply-reserve.js';
export type { TruncatedToolResult } from './runtime/oversized-tool-results.js';
export { OVERSIZED_TOOL_RESULT_FACTOR, truncateOversizedToolResults } from './runtime/oversized-tool-results.js';
export type { FoldedUserQuote } from './runtime/folded-user-quotes.js';
export { ContextOverflowError } from './errors/context-overflow-error.js';
export type { ContextBudget } from './runtime/context-budget.js';
export { computeBudget } from './runtime/context-budget.js';
export type { ContextManagerOptions } from './runtime/context-manager-options.js';
export type { CompleteOptions, CompressOptions, CompressionOutcome, ContextCompletion, PreparedRequest } from './runtime/context-manager.js';
export { ContextManager } from './runtime/context-manager.js';
export type { WindowGuardOptions } from './runtime/window-guard-provider.js';
export { createWindowGuardProvider } from './runtime/window-guard-provider.js';
