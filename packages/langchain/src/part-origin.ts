import type { BaseMessage, ToolCall } from '@langchain/core/messages';
import type { Message, MessagePart } from '@ollm/core';

/** One element of a LangChain message's array content, as LangChain keeps it (extra fields and all). */
export type ContentBlockLike = Readonly<Record<string, unknown>>;

/**
 * Where a part of an ollm message came from in its LangChain message, so a part no stage changed
 * goes back exactly as it was (a content block with its `cache_control`, a tool call with its
 * `type`, the `reasoning_content` kwarg).
 */
export type PartOrigin =
  /** The message's string content. */
  | { readonly kind: 'text-content' }
  /** One block of the message's array content. */
  | { readonly kind: 'block'; readonly block: ContentBlockLike }
  /** `additional_kwargs.reasoning_content` (DeepSeek, vLLM, ChatOpenAI-compatible servers). */
  | { readonly kind: 'reasoning-content' }
  /** One entry of an AIMessage's `tool_calls`. */
  | { readonly kind: 'tool-call'; readonly call: ToolCall }
  /** A ToolMessage's content (a string or blocks). */
  | { readonly kind: 'tool-content' };

/** A LangChain message as ollm sees it, and what is needed to give it back. */
export interface ConvertedMessage {
  /** The ollm message (id `m<index>`). */
  readonly message: Message;
  readonly source: BaseMessage;
  /** The message's position in the request (the system message first, when one is sent). */
  readonly index: number;
  /** JSON of everything the model is sent from the message: decides reuse of cached compactions. */
  readonly key: string;
  /** Where each part came from. */
  readonly origins: ReadonlyMap<MessagePart, PartOrigin>;
  /** Content blocks that restate a tool call (`tool_use`, `tool_call`): they go back with their call. */
  readonly callBlocks: readonly ContentBlockLike[];
}
