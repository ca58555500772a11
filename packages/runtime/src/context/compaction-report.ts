import { type Checkpoint, checkpointOf, type CompactionResult, isCheckpointMessage, type Message, type TokenCounting } from '@ollm/core';
import type { ContextEventEmitter } from '../events/context-events.js';

/** What a compaction's events compare against: the checkpoints and conversation it started from. */
export interface CompactionBaseline {
  readonly checkpoints: ReadonlyMap<string, Checkpoint>;
  /** Ids of the assistant and tool messages (checkpoints aside) the compaction started from. */
  readonly replyIds: ReadonlySet<string>;
}

export function compactionBaseline(messages: readonly Message[]): CompactionBaseline {
  return {
    checkpoints: new Map(messages.filter(isCheckpointMessage).map((message) => [message.id, checkpointOf(message)!])),
    replyIds: new Set(messages.filter(isReply).map((message) => message.id)),
  };
}

/** An assistant or tool message that is no checkpoint: what a rollover replaces. */
function isReply(message: Message): boolean {
  return (message.role === 'assistant' || message.role === 'tool') && !isCheckpointMessage(message);
}

/**
 * Emits the events of one compaction, in order: checkpoints created or aged, user messages
 * folded, `compacted` (and the deprecated `compressed`), and `rollover-complete` when none of the assistant
 * and tool messages it started from is left apart from checkpoints: what answered the user is
 * now only in checkpoints or in messages the compaction inserted (summarize's RESUME and context
 * files). User messages may stay (summarize keeps the task and the latest request).
 */
export function reportCompaction(
  events: ContextEventEmitter,
  tokens: TokenCounting,
  input: {
    readonly baseline: CompactionBaseline;
    readonly messages: readonly Message[];
    readonly provider: string;
    readonly stages: readonly string[];
    readonly trigger: 'automatic' | 'manual';
    readonly result: CompactionResult;
    readonly compactionCount: number;
  },
): void {
  const { baseline, messages, provider, result } = input;
  for (const message of messages) {
    const checkpoint = checkpointOf(message);
    if (!checkpoint) continue;
    const previous = baseline.checkpoints.get(message.id);
    if (!previous) events.emit('checkpoint-created', { checkpointId: checkpoint.id, tokens: tokens.countMessage(message) });
    else if (previous.level !== checkpoint.level || previous.currentTokens !== checkpoint.currentTokens) {
      events.emit('checkpoint-aged', { checkpointId: checkpoint.id, level: checkpoint.level, tokens: tokens.countMessage(message) });
    }
  }
  if (result.folded && result.folded.length > 0) {
    events.emit('user-messages-folded', { messageIds: result.folded.map((entry) => entry.messageId), reason: result.folded[0]!.reason });
  }
  events.emit('compacted', {
    provider,
    stages: input.stages,
    trigger: input.trigger,
    stats: result.stats,
    removed: result.removed,
    limitations: result.limitations,
    compactionCount: input.compactionCount,
  });
  const keptReply = messages.some((message) => baseline.replyIds.has(message.id) && isReply(message));
  if (baseline.replyIds.size > 0 && !keptReply) {
    events.emit('rollover-complete', { provider, tokensBefore: result.stats.tokensBefore, tokensAfter: result.stats.tokensAfter });
  }
}
