import type { MessagePart } from '@ollm/core';
import { isRecord } from '../json/order-like.js';
import { invalidTranscript } from '../validation/invalid-transcript.js';
import { expectRecord, expectString } from '../validation/expect.js';

/** Block types only the Anthropic Messages API uses; detection looks for them. */
export const ANTHROPIC_ONLY_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'image', 'document']);

/** One content block of an Anthropic message as a message part. */
export function readAnthropicBlock(value: unknown, file: string, position: string): MessagePart {
  const block = expectRecord(value, file, position, 'a content block');
  switch (block.type) {
    case 'text':
      return { type: 'text', text: expectString(block.text, file, position, 'text') };
    case 'thinking':
      return { type: 'reasoning', text: expectString(block.thinking, file, position, 'thinking') };
    case 'redacted_thinking':
      // Encrypted reasoning: no readable text; the block itself is written back while it is kept.
      return { type: 'reasoning', text: '' };
    case 'tool_use':
      return {
        type: 'tool-call',
        callId: expectString(block.id, file, position, 'id'),
        name: expectString(block.name, file, position, 'name'),
        input: block.input ?? {},
      };
    case 'tool_result':
      return {
        type: 'tool-result',
        callId: expectString(block.tool_use_id, file, position, 'tool_use_id'),
        output: toolResultText(block.content, file, position),
        ...(typeof block.is_error === 'boolean' ? { isError: block.is_error } : {}),
      };
    case 'image':
    case 'document': {
      const source = expectRecord(block.source, file, position, 'source');
      const fallback = block.type === 'image' ? 'image/*' : 'application/octet-stream';
      return {
        type: 'file',
        mediaType: typeof source.media_type === 'string' ? source.media_type : fallback,
        ...(typeof source.data === 'string' ? { data: source.data } : {}),
        ...(typeof source.url === 'string' ? { uri: source.url } : {}),
        ...(typeof block.title === 'string' ? { name: block.title } : {}),
      };
    }
    default:
      throw invalidTranscript(file, position, `unknown content block type ${JSON.stringify(block.type)}`);
  }
}

function toolResultText(content: unknown, file: string, position: string): string {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw invalidTranscript(file, position, 'tool_result content must be a string or an array of blocks');
  return content
    .map((block, index) => readAnthropicBlock(block, file, `${position}, result block ${index}`))
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

/** A message part as an Anthropic content block. */
export function writeAnthropicBlock(part: MessagePart): Record<string, unknown> {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return { type: 'thinking', thinking: part.text };
    case 'tool-call':
      return { type: 'tool_use', id: part.callId, name: part.name, input: part.input ?? {} };
    case 'tool-result':
      return {
        type: 'tool_result',
        tool_use_id: part.callId,
        content: part.output,
        ...(part.isError === undefined ? {} : { is_error: part.isError }),
      };
    case 'file': {
      const source = part.data !== undefined ? { type: 'base64', media_type: part.mediaType, data: part.data } : { type: 'url', url: part.uri ?? '' };
      return { type: part.mediaType.startsWith('image/') ? 'image' : 'document', source };
    }
  }
}

export function hasAnthropicOnlyBlock(message: unknown): boolean {
  return (
    isRecord(message) &&
    Array.isArray(message.content) &&
    message.content.some(
      (block) => isRecord(block) && typeof block.type === 'string' && ANTHROPIC_ONLY_BLOCKS.has(block.type) && (block.type !== 'image' || 'source' in block),
    )
  );
}
