import { saveRemovedContent, sha256Hex, type Message, type RemovedContent, type TokenCounter } from '@ollm/core';

/** Where a removed piece went: its sha256 and, when a logdir was given, the saved file. */
export interface RecordedRemoval {
  readonly sha256: string;
  readonly path?: string;
}

/**
 * The working copy of a conversation during one trim: the messages (replaced, never mutated),
 * a running token total kept by deltas so each edit costs only the edited message, and the
 * record of every removed piece.
 */
export class TrimWorkspace {
  readonly messages: Message[];
  readonly removed: RemovedContent[] = [];
  readonly tokens: TokenCounter;
  readonly logdir: string | undefined;
  readonly limit: number | undefined;
  private total: number;

  constructor(input: readonly Message[], tokens: TokenCounter, logdir: string | undefined, limit: number | undefined) {
    this.messages = [...input];
    this.tokens = tokens;
    this.logdir = logdir;
    this.limit = limit;
    this.total = tokens.countMessages(input);
  }

  get totalTokens(): number {
    return this.total;
  }

  /** True while a limit is set and the conversation is over it. */
  get overLimit(): boolean {
    return this.limit !== undefined && this.total > this.limit;
  }

  /** False once a limit is reached; always true without a limit (then every candidate is trimmed). */
  get shouldContinue(): boolean {
    return this.limit === undefined || this.total > this.limit;
  }

  /** Untouchable: system and user messages (byte-identical by contract) and pinned messages. */
  isProtected(index: number): boolean {
    const message = this.messages[index]!;
    return message.pinned === true || message.role === 'system' || message.role === 'user';
  }

  /** Replaces message `index` when that makes it smaller; returns whether it did. */
  replace(index: number, next: Message): boolean {
    const previous = this.messages[index]!;
    const delta = this.tokens.countMessage(next) - this.tokens.countMessage(previous);
    if (delta >= 0) return false;
    this.messages[index] = next;
    this.total += delta;
    return true;
  }

  /** Saves `content` under logdir when there is one; the caller lists it with `record`. */
  store(content: string): RecordedRemoval {
    if (this.logdir === undefined) return { sha256: sha256Hex(content) };
    return saveRemovedContent(this.logdir, content);
  }

  record(messageId: string, kind: string, content: string, stored: RecordedRemoval): void {
    this.removed.push({
      messageId,
      kind,
      sha256: stored.sha256,
      originalTokens: this.tokens.countText(content),
      ...(stored.path !== undefined ? { path: stored.path } : {}),
    });
  }
}
