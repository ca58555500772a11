import { isRecord } from '../json/order-like.js';
import { hasAnthropicOnlyBlock } from './anthropic-blocks.js';
import { readAnthropic } from './anthropic-reader.js';
import { writeAnthropic } from './anthropic-writer.js';
import type { FormatCodec } from './format-codec.js';

/** Anthropic Messages API: `{system?, messages: [{role: user|assistant, content}]}` or a bare array. */
export const anthropicFormat: FormatCodec = {
  format: 'anthropic',
  syntax: 'json',
  read: readAnthropic,
  write(document, conversations, sources) {
    return writeAnthropic(document, conversations[0]?.messages ?? [], sources[0]);
  },
};

/** A top-level `system` or a block type only Anthropic uses. */
export function looksLikeAnthropic(document: unknown): boolean {
  const messages = Array.isArray(document) ? document : isRecord(document) && Array.isArray(document.messages) ? document.messages : [];
  if (isRecord(document) && document.system !== undefined && messages.every((message) => !isRecord(message) || message.role !== 'system')) {
    return true;
  }
  return messages.some((message) => hasAnthropicOnlyBlock(message));
}
