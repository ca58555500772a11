import type { CompactionResult, LanguageModel, LanguageModelResult, Message } from '@ollm/core';

/** What a compaction did: the stages that changed the context, merged into one result. */
export interface CompactionOutcome {
  /** The stages that changed the context, comma-separated (`mask,goal-aware`). */
  readonly provider: string;
  readonly trigger: 'automatic' | 'manual';
  /** The stages merged: the first stage's input to the last stage's output. */
  readonly result: CompactionResult;
}

/** Cancels a compaction in flight: stages not yet run are skipped; the window is still kept. */
export interface CompactOptions {
  readonly abortSignal?: AbortSignal;
}

/** @deprecated Use `CompactionOutcome`. */
export type CompressionOutcome = CompactionOutcome;
/** @deprecated Use `CompactOptions`. */
export type CompressOptions = CompactOptions;

/** A request the runtime checked against the window: send `messages` with `maxOutputTokens`. */
export interface PreparedRequest {
  /** The system message (prompt, goal block, folded quotes), then the active context. */
  readonly messages: Message[];
  /** The reply reserve: the reply limit to send (`num_predict` / `max_tokens`). */
  readonly maxOutputTokens: number;
  /** What the request holds, calibrated as the budget counts it; at most `requestLimit`. */
  readonly tokens: number;
  readonly requestLimit: number;
}

export interface CompleteOptions extends CompactOptions {
  /** Default: the manager's `model`. */
  readonly model?: LanguageModel;
  readonly temperature?: number;
  readonly onTextDelta?: (delta: string) => void;
}

export interface ContextCompletion extends LanguageModelResult {
  /** What was sent. */
  readonly request: PreparedRequest;
}
