import type { CompactionWarning } from './v2/compaction-warning.js';
import type { Message } from '../messages/message.js';

/** Where one removed piece of content can be recovered from. */
export interface RemovedContent {
  /** Id of the message the content came from. */
  readonly messageId: string;
  /** What was removed, e.g. `tool-result`, `reasoning`, `assistant-text`, `message`. */
  readonly kind: string;
  /** sha256 (hex) of the removed content's UTF-8 bytes. */
  readonly sha256: string;
  /**
   * Tokens the removed content took in the context: a tool call's arguments as the model read
   * them (their raw JSON), any other content as it was.
   */
  readonly originalTokens: number;
  /** File under `logdir` holding the content byte-for-byte, when it was saved. */
  readonly path?: string;
  /** Byte range in a source log, where the source is an append-only log. */
  readonly byteRange?: readonly [start: number, end: number];
}

export interface CompactionStats {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly timeMs: number;
  /** Tokens sent to / received from a model, for model-based providers. */
  readonly modelInputTokens?: number;
  readonly modelOutputTokens?: number;
  readonly modelCalls?: number;
}

/** A user message a provider folded away under an explicit policy. */
export interface FoldedMessage {
  readonly messageId: string;
  readonly reason: string;
}

export interface CompactionResult {
  readonly messages: readonly Message[];
  /** sha256 over the canonical form of the input messages (docs/source-digest.md). */
  readonly sourceDigest: string;
  /** Index of the last input message this result accounts for (-1 for none). */
  readonly coveredThrough: number;
  readonly removed: readonly RemovedContent[];
  readonly stats: CompactionStats;
  /** Human-readable notes on what kind of loss happened, or why the target was not reached. */
  readonly limitations: readonly string[];
  /** The same, typed (v2 providers return them; a v1 provider's limitations become notes). */
  readonly warnings?: readonly CompactionWarning[];
  /**
   * User messages deliberately folded (e.g. into a checkpoint or resume). The validator lets
   * exactly these be absent from the output; it never lets a user message be edited.
   */
  readonly folded?: readonly FoldedMessage[];
}
