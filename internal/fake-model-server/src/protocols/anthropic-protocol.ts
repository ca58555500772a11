import type { Message, MessagePart } from '@ollm/core';
import type { ChatExchange, ChatOutcome, RenderedBody } from '../chat-exchange.js';
import { splitIntoDeltas } from '../chat-exchange.js';

// Anthropic's Messages wire format (`/v1/messages`), as the official `@anthropic-ai/sdk` reads it.
const SSE = 'text/event-stream; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

type WireRecord = Record<string, unknown>;
const isRecord = (value: unknown): value is WireRecord => value !== null && typeof value === 'object' && !Array.isArray(value);

export function parseAnthropicChat(body: WireRecord): ChatExchange & { messages: unknown } {
  const maxTokens = typeof body['max_tokens'] === 'number' && Number.isFinite(body['max_tokens']) ? body['max_tokens'] : undefined;
  const messages = Array.isArray(body['messages']) ? body['messages'] : [];
  return {
    model: typeof body['model'] === 'string' ? body['model'] : '',
    // The top-level system prompt first, as a role-system message: counted like every other.
    messages: body['system'] === undefined ? messages : [{ role: 'system', content: body['system'] }, ...messages],
    stream: body['stream'] === true,
    includeUsage: true,
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}

/** Every block a model reads, as core parts: text, tool_use (its input), tool_result (its text), thinking. */
function blockParts(content: unknown): MessagePart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord).flatMap((block): MessagePart[] => {
    switch (block['type']) {
      case 'text':
        return [{ type: 'text', text: String(block['text'] ?? '') }];
      case 'thinking':
        return [{ type: 'reasoning', text: String(block['thinking'] ?? '') }];
      case 'tool_use':
        return [{ type: 'tool-call', callId: String(block['id'] ?? ''), name: String(block['name'] ?? ''), input: block['input'] ?? {} }];
      case 'tool_result': {
        const inner = block['content'];
        const output =
          typeof inner === 'string'
            ? inner
            : blockParts(inner)
                .map((part) => (part.type === 'text' ? part.text : ''))
                .join('\n');
        return [{ type: 'tool-result', callId: String(block['tool_use_id'] ?? ''), output }];
      }
      default:
        return [];
    }
  });
}

/** The messages of an Anthropic request as core messages, so the server counts what it received. */
export function anthropicToMessages(wire: unknown): Message[] {
  if (!Array.isArray(wire)) return [];
  return wire.filter(isRecord).map((message, index) => ({
    id: `wire-${index}`,
    role: message['role'] === 'assistant' ? 'assistant' : message['role'] === 'system' ? 'system' : 'user',
    parts: blockParts(message['content']),
  }));
}

function stopReason(outcome: ChatOutcome): string {
  return outcome.finishReason === 'tool_calls' ? 'tool_use' : outcome.finishReason === 'length' ? 'max_tokens' : 'end_turn';
}

function contentBlocks(outcome: ChatOutcome): WireRecord[] {
  return [
    ...(outcome.text !== '' || !outcome.toolCalls ? [{ type: 'text', text: outcome.text }] : []),
    ...(outcome.toolCalls ?? []).map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments ?? {} })),
  ];
}

function event(type: string, value: WireRecord): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...value })}\n\n`;
}

export function renderAnthropicChat(exchange: ChatExchange, outcome: ChatOutcome, id: string): RenderedBody {
  const usage = { input_tokens: outcome.promptTokens, output_tokens: outcome.completionTokens };
  if (!exchange.stream) {
    const body = {
      id,
      type: 'message',
      role: 'assistant',
      model: exchange.model,
      content: contentBlocks(outcome),
      stop_reason: stopReason(outcome),
      stop_sequence: null,
      usage,
    };
    return { contentType: JSON_TYPE, chunks: [JSON.stringify(body)] };
  }
  const chunks = [
    event('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: exchange.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: outcome.promptTokens, output_tokens: 1 },
      },
    }),
  ];
  contentBlocks(outcome).forEach((block, index) => {
    if (block['type'] === 'text') {
      chunks.push(event('content_block_start', { index, content_block: { type: 'text', text: '' } }));
      for (const text of splitIntoDeltas(String(block['text']))) chunks.push(event('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    } else {
      chunks.push(event('content_block_start', { index, content_block: { ...block, input: {} } }));
      chunks.push(event('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(block['input']) } }));
    }
    chunks.push(event('content_block_stop', { index }));
  });
  chunks.push(event('message_delta', { delta: { stop_reason: stopReason(outcome), stop_sequence: null }, usage }));
  chunks.push(event('message_stop', {}));
  return { contentType: SSE, chunks };
}

/** Anthropic's error body. */
export function anthropicError(status: number, message: string): WireRecord {
  return { type: 'error', error: { type: status === 400 ? 'invalid_request_error' : status === 404 ? 'not_found_error' : 'api_error', message } };
}
