import { checkpointOf, type Message, type TokenCounter } from '@ollm/core';
import { formatInteger } from '../output/format-number.js';

export interface CheckpointEntry {
  readonly id: string;
  readonly level: number;
  readonly range: string;
  /** What the checkpoint message costs now. */
  readonly tokens: number;
  /** What the turns it summarises cost before. */
  readonly originalTokens: number;
  readonly compressionCount: number;
}

/** The checkpoints a conversation carries (goal-aware's summaries, read back from any format that keeps them). */
export function listCheckpoints(messages: readonly Message[], tokens: TokenCounter): CheckpointEntry[] {
  return messages.flatMap((message) => {
    const checkpoint = checkpointOf(message);
    if (!checkpoint) return [];
    return [
      {
        id: checkpoint.id,
        level: checkpoint.level,
        range: checkpoint.range,
        tokens: tokens.countMessage(message),
        originalTokens: checkpoint.originalTokens,
        compressionCount: checkpoint.compressionCount,
      },
    ];
  });
}

const LEVEL_NAMES: Readonly<Record<number, string>> = { 3: 'new', 2: 'old', 1: 'ancient', 0: 'merged' };

/** `Checkpoints: 2` and one line each: `  ckpt-1  level 2 (old)  Messages 2-40  612 tokens (of 9,804)`. */
export function renderCheckpoints(entries: readonly CheckpointEntry[]): string {
  if (entries.length === 0) return 'Checkpoints: none';
  const lines = entries.map(
    (entry) =>
      `  ${entry.id}  level ${entry.level} (${LEVEL_NAMES[entry.level] ?? '?'})  ${entry.range}  ${formatInteger(entry.tokens)} tokens (of ${formatInteger(entry.originalTokens)})`,
  );
  return [`Checkpoints: ${entries.length}`, ...lines].join('\n');
}
