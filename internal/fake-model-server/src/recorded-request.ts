import type { Message } from '@ollm/core';
import type { FaultKind } from './fault.js';

/** One request the fake server received, recorded before any fault is applied. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** Which protocol the path belongs to. */
  readonly protocol: 'ollama' | 'openai' | 'openai-responses' | 'anthropic';
  /** Lower-cased header names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The parsed JSON body (or the raw text when it is not JSON; undefined when empty). */
  readonly body: unknown;
  readonly model?: string;
  /** The chat messages sent, as core messages. */
  readonly messages: readonly Message[];
  /** o200k token count of `messages` by core's TokenCounter; the server reports it as prompt tokens. */
  readonly promptTokens: number;
  readonly stream: boolean;
  readonly maxTokens?: number;
  /** The body of a chat reply as written, chunks joined (set once it is sent; not for faults). */
  readonly responseBody?: string;
  /** Set when `truncateOverWindow` cut the prompt before answering (Ollama's silent truncation). */
  readonly truncated?: boolean;
  /** The fault applied to this request, if any. */
  readonly fault?: FaultKind;
}
