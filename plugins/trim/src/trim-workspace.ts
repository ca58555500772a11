import { join } from 'node:path';
import {
  isCheckpointMessage,
  type Message,
  RECOVERY_FOLDER,
  type RemovedContent,
  saveRemovedContent,
  sha256Hex,
  type TokenCounting,
  type ToolCallPart,
  type ToolResultPart,
} from '@ollm/core';

/** Where a removed piece went: its sha256 and, when a logdir was given, the saved file. */
export interface RecordedRemoval {
  readonly sha256: string;
  readonly path?: string;
}

/** sha256 of a part's content by the part it was read from: a live session locates the same parts in every compaction. */
const hashes = new WeakMap<object, { readonly content: string; readonly sha256: string }>();

/**
 * The working copy of a conversation during one trim: the messages (replaced, never mutated),
 * a running token total kept by deltas so each edit costs only the edited message, and the
 * record of every removed piece.
 */
export class TrimWorkspace {
  readonly messages: Message[];
  readonly removed: RemovedContent[] = [];
  readonly tokens: TokenCounting;
  readonly logdir: string | undefined;
  readonly limit: number | undefined;
  private total: number;
  // Each pass looks at every tool call again; counting one costs as much as its arguments are long.
  // Within a call a part is counted once (here); across calls, by content (the counter's cache).
  private readonly callInputTokens = new WeakMap<ToolCallPart, number>();

  constructor(input: readonly Message[], tokens: TokenCounting, logdir: string | undefined, limit: number | undefined) {
    this.messages = [...input];
    this.tokens = tokens;
    this.logdir = logdir;
    this.limit = limit;
    this.total = tokens.countMessages(input);
  }

  get totalTokens(): number {
    return this.total;
  }

  /**
   * Tokens of a tool output; the counter caches it by part, and has it already when it counted the
   * message. `_message` is no longer read; it stays so callers of this public class still compile.
   */
  countOutput(part: ToolResultPart, _message?: Message): number {
    return this.tokens.countPartText(part);
  }

  /** Tokens of a tool call's arguments as the model sees them (`rawInput`, else the JSON of `input`), counted once per part. */
  countToolCallInput(part: ToolCallPart, raw: string): number {
    let count = this.callInputTokens.get(part);
    if (count === undefined) {
      count = this.tokens.countText(raw);
      this.callInputTokens.set(part, count);
    }
    return count;
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
  /** System, user and pinned messages, and checkpoints (only the provider that made one ages it): never edited. */
  isProtected(index: number): boolean {
    const message = this.messages[index]!;
    return message.pinned === true || message.role === 'system' || message.role === 'user' || isCheckpointMessage(message);
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

  /**
   * Where `content` will be saved (its sha256 and, with a logdir, the file), without writing:
   * placeholders name the file before trim knows whether the edit is worth making. `from`, the
   * part `content` was read from, remembers the sha256 for the next compaction of that part.
   */
  locate(content: string, from?: object): RecordedRemoval {
    const known = from === undefined ? undefined : hashes.get(from);
    let sha256: string;
    if (known !== undefined && known.content === content) sha256 = known.sha256;
    else {
      sha256 = sha256Hex(content);
      if (from !== undefined) hashes.set(from, { content, sha256 });
    }
    if (this.logdir === undefined) return { sha256 };
    return { sha256, path: join(this.logdir, RECOVERY_FOLDER, `${sha256}.txt`) };
  }

  /**
   * Saves `content` (when there is a logdir) and lists it in `removed`; call once the edit is made.
   * `located` is what `locate(content)` returned, if the caller has it: its sha256 is not computed again.
   */
  commit(messageId: string, kind: string, content: string, originalTokens?: number, located?: RecordedRemoval): void {
    const known = located ?? this.locate(content);
    const stored = this.logdir === undefined ? known : saveRemovedContent(this.logdir, content, known.sha256);
    this.removed.push({
      messageId,
      kind,
      sha256: stored.sha256,
      originalTokens: originalTokens ?? this.tokens.countText(content),
      ...(stored.path !== undefined ? { path: stored.path } : {}),
    });
  }
}
