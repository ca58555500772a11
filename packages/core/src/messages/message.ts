import type { MessagePart } from './message-part.js';

export type MessageRole = 'system' | 'user' | 'assistant' | 'tool';
export const MESSAGE_ROLES: readonly MessageRole[] = ['system', 'user', 'assistant', 'tool'];

/**
 * One message of a conversation. Messages are immutable values: a provider that changes one
 * returns a new object with the same `id`.
 */
export interface Message {
  /** Stable identity; kept by every provider for a message it keeps or edits. */
  readonly id: string;
  readonly role: MessageRole;
  readonly parts: readonly MessagePart[];
  /** ISO 8601; present when the source recorded one. Providers never change it. */
  readonly timestamp?: string;
  /** A pinned message is never compressed, dropped or edited. */
  readonly pinned?: boolean;
  /** Optional author name (OpenAI `name`). */
  readonly name?: string;
  /**
   * Data a transcript format carries that is not model input (e.g. SWE-agent `extra`,
   * a source role such as `exit`). Writers restore it; digests and token counts ignore it.
   */
  readonly metadata?: Readonly<Record<string, unknown>>;
}
