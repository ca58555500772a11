import type { Conversation, TranscriptFormat } from '../transcript.js';

/** Where a message came from in the parsed document. */
export interface SourceReference {
  /** The source object (message, line or block group). */
  readonly source: Record<string, unknown>;
  /** Index of the source message; pieces split from one source message share it. */
  readonly group: number;
}

/** A conversation as read, with the map from message id to its source, used when writing. */
export interface ReadConversation extends Conversation {
  readonly sources: ReadonlyMap<string, SourceReference>;
}

/** Reader and writer of one transcript format, working on the parsed document. */
export interface FormatCodec {
  readonly format: TranscriptFormat;
  /** `jsonl`: one JSON value per line; `json`: one document. */
  readonly syntax: 'json' | 'jsonl';
  /**
   * The format has a field for message metadata (ollm's own session layout), so a checkpoint's
   * metadata is given to `write` as is instead of being left to its header line.
   */
  readonly carriesMetadata?: boolean;
  read(document: unknown, file: string): ReadConversation[];
  /**
   * A new document holding `conversations`. Messages whose id is in `sources` are written over
   * their source object (keeping what the message model does not carry); others are written plainly.
   */
  write(document: unknown, conversations: readonly Conversation[], sources: readonly ReadonlyMap<string, SourceReference>[]): unknown;
}
