import type { Message } from '../messages/message.js';

/** A checkpoint, as the runtime and goal-aware share it; goal-aware stores one in `metadata.checkpoint` of its summary message. */
export interface Checkpoint {
  readonly id: string;
  /** 3 = new (detailed, ~1200 tokens), 2 = old (~600), 1 = ancient (~300), 0 = merged ultra (~150). */
  readonly level: 0 | 1 | 2 | 3;
  /** e.g. "Messages 12-48". */
  readonly range: string;
  readonly summary: string;
  readonly createdAt: string;
  readonly compressedAt?: string;
  readonly originalTokens: number;
  readonly currentTokens: number;
  readonly compressionCount: number;
  readonly compressionNumber?: number;
  readonly keyDecisions?: readonly string[];
  readonly filesModified?: readonly string[];
  readonly nextSteps?: readonly string[];
}

/** The checkpoint a message carries, if it is a checkpoint message. */
export function checkpointOf(message: Message): Checkpoint | undefined {
  const checkpoint = message.metadata?.checkpoint;
  return checkpoint && typeof checkpoint === 'object' ? (checkpoint as Checkpoint) : undefined;
}

export function isCheckpointMessage(message: Message): boolean {
  return checkpointOf(message) !== undefined;
}
