// @ollm/runtime: a live conversation inside a fixed window (the context manager, its budget,
// reply reserve, window guard and calibration; goals, reliability, events; session history,
// snapshots and locks; config; the provider registry and plugin discovery). Built on @ollm/core.

// Registry and discovery
export type { RegisteredProvider } from './registry/provider-registry.js';
export { ProviderRegistry, defaultRegistry, getContextProvider, listProviders, registerProvider } from './registry/provider-registry.js';
export type { DiscoverOptions, DiscoveredPlugin, DiscoveryReport } from './registry/discover-plugins.js';
export { PLUGIN_KEYWORD, discoverPlugins, findNearestManifest } from './registry/discover-plugins.js';

// Goals, reliability, events
export type { GoalManagerOptions, MarkerOutcome } from './goals/goal-manager.js';
export { GoalManager } from './goals/goal-manager.js';
export type { GoalProposal, MarkerSource, ModelMarkerPolicy } from './goals/model-marker-policy.js';
export { DEFAULT_MODEL_MARKER_POLICY, MODEL_MARKER_POLICIES } from './goals/model-marker-policy.js';
export type {
  CompactionGuidance,
  ModelSizeClass,
  Reliability,
  ReliabilityCheck,
  ReliabilityInput,
  ReliabilityLevel,
  ReliabilityWarningReason,
  ReliabilityWatch,
} from './reliability/reliability.js';
export {
  COMPACTION_GUIDANCE,
  checkReliabilityWarning,
  compactionGuidance,
  computeReliability,
  guidanceMarks,
  parseModelSize,
  reliabilityLevel,
  reliabilityWarning,
} from './reliability/reliability.js';
export type { CompactedEvent, ContextEventListener, ContextEventName, ContextEvents } from './events/context-events.js';
export { ContextEventEmitter } from './events/context-events.js';

// Storage: session history, snapshots, ids
export { ollmHome, resolveInside, validateStorageId } from './storage/storage-id.js';
export { withFileLock } from './storage/file-lock.js';
export { redactSecrets } from './storage/redact-secrets.js';
export type { SessionEntry, SessionHistoryOptions, SessionRecord } from './storage/session-history.js';
export { HISTORY_FILE, SessionHistory, deleteSession, listSessions, readSession, readSessionFile } from './storage/session-history.js';
export type { SearchField, SearchSessionsOptions, SearchSnippet, SessionSearchHit, SessionSearchResult, SnippetMatch } from './storage/search-sessions.js';
export { DEFAULT_SEARCH_LIMIT, searchSessions } from './storage/search-sessions.js';
export type { ExportedSession } from './storage/export-session.js';
export { exportSession } from './storage/export-session.js';
export type { ContextSnapshot, ContextState, SnapshotSummary } from './storage/snapshot-store.js';
export { SnapshotStore, compactionCountOf, summaryCountOf, DEFAULT_RETAIN_MANUAL } from './storage/snapshot-store.js';
export { SessionInUseError } from './errors/session-in-use-error.js';
export type { SessionLock, SessionLockOptions, SessionLockOwner } from './storage/session-lock.js';
export { SESSION_LOCK_FILE, acquireSessionLock } from './storage/session-lock.js';
export type { StaleFile, StaleFileOptions } from './storage/stale-files.js';
export { STALE_FILE_AGE_MS, findStaleFiles, removeStaleFiles } from './storage/stale-files.js';
export { MINIMUM_REFERENCE_DIGITS, RecoveryReferences } from './storage/recovery-references.js';
export type {
  CollectRecoveryGarbageOptions,
  DeletedRecoveryEntry,
  RecoveryEntryInfo,
  RecoveryGarbageReport,
  RecoveryRetention,
} from './storage/collect-recovery-garbage.js';
export { RECENT_ENTRY_GRACE_MS, collectRecoveryGarbage } from './storage/collect-recovery-garbage.js';

// Config
export { InvalidConfigError } from './errors/invalid-config-error.js';
export type { OllmConfig, OllmConfigInput } from './config/config-defaults.js';
export { DEFAULT_OLLM_CONFIG } from './config/config-defaults.js';
export type { LoadConfigOptions, LoadedConfig } from './config/load-config.js';
export { loadConfig } from './config/load-config.js';

// The context manager
export { CircuitBreaker } from './context/circuit-breaker.js';
export type { CalibrationReading } from './context/token-calibration.js';
export { CALIBRATION_CEILING, CALIBRATION_FLOOR, CALIBRATION_OUTLIER_RATIO, TokenCalibration } from './context/token-calibration.js';
export { DEFAULT_REPLY_RESERVE_SHARE, resolveReplyReserve } from './context/reply-reserve.js';
export type { TruncatedToolResult } from './context/oversized-tool-results.js';
export { OVERSIZED_TOOL_RESULT_FACTOR, truncateOversizedToolResults } from './context/oversized-tool-results.js';
export type { FoldedUserQuote } from './context/folded-user-quotes.js';
export { ContextOverflowError } from './errors/context-overflow-error.js';
export type { ContextBudget } from './context/context-budget.js';
export { computeBudget } from './context/context-budget.js';
export type { ContextManagerOptions } from './context/context-manager-options.js';
export type {
  CompactionOutcome,
  CompactOptions,
  CompleteOptions,
  CompressionOutcome,
  CompressOptions,
  ContextCompletion,
  PreparedRequest,
} from './context/context-manager-types.js';
export { ContextManager } from './context/context-manager.js';
export type { WindowGuardOptions } from './context/window-guard-provider.js';
export { createWindowGuardProvider, WINDOW_GUARD_NOTE_PREFIX } from './context/window-guard-provider.js';

// Incremental compaction for hosts that send the whole conversation on every call
export type { IncrementalCompactorOptions, IncrementalFit, IncrementalFitOptions, IncrementalWindow } from './incremental/incremental-compactor.js';
export { DEFAULT_INCREMENTAL_CACHE_ENTRIES, DEFAULT_INCREMENTAL_TARGET_SHARE, IncrementalCompactor } from './incremental/incremental-compactor.js';
export type { CompactedSpan, CompactSpanOptions } from './incremental/compact-span.js';
export { DEFAULT_SPAN_TARGET_SHARE, MAX_SPAN_REFERENCES, compactSpan, spanTarget } from './incremental/compact-span.js';

// The recall tool: the model takes back what compaction removed
export type { RecallInput, RecallOptions, RecallResult, RecallToolDefinition } from './recall/recall-tool.js';
export {
  DEFAULT_RECALL_MAX_CHARACTERS,
  DEFAULT_RECALL_WINDOW_SHARE,
  RECALL_TOOL,
  RECALL_TOOL_NAME,
  recallOutput,
  recallRemoved,
} from './recall/recall-tool.js';
