import type { Message, Tokenizer } from '@ollm/core';
import { messageText, renderMessage } from '@ollm/core';
import { extractiveDigest } from './extractive-digest.js';
import { buildResume } from './resume.js';

/** Budget for summaries when the request names no max tokens. */
export const DEFAULT_SUMMARY_TOKENS = 512;

const CONVERSATION = /<conversation>([\s\S]*?)<\/conversation>/;

/** What a reply function sees of a chat request. */
export interface FakeChatRequest {
  readonly protocol: 'ollama' | 'openai' | 'openai-responses' | 'anthropic';
  readonly model: string;
  readonly messages: readonly Message[];
  /** `num_predict` / `max_tokens` / `max_completion_tokens`, when the request set one. */
  readonly maxTokens?: number;
  /** The names of the tools the request offers (`tools[].function.name`). */
  readonly toolNames?: readonly string[];
}

/**
 * The deterministic reply: a RESUME when the last message asks for one, an extractive digest of
 * the text between `<conversation>` delimiters, otherwise a short echo of the last user message.
 */
export function composeReply(request: FakeChatRequest, tokenizer: Tokenizer): string {
  const last = request.messages.at(-1);
  const lastText = last ? messageText(last) : '';
  const delimited = CONVERSATION.exec(lastText)?.[1];
  const budget = request.maxTokens ?? DEFAULT_SUMMARY_TOKENS;
  if (lastText.includes('RESUME')) {
    const conversation =
      delimited ??
      request.messages
        .slice(0, -1)
        .map((message) => renderMessage(message))
        .join('\n');
    return buildResume(conversation, budget, tokenizer);
  }
  if (delimited !== undefined) return extractiveDigest(delimited, budget, tokenizer);
  const lastUser = [...request.messages].reverse().find((message) => message.role === 'user');
  // The server cuts the echo to max tokens itself, so it can report finish reason `length`.
  return `fake reply to: ${(lastUser ? messageText(lastUser) : '').slice(0, 80)}`;
}
