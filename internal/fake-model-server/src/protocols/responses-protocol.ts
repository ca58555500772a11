import type { Message, MessagePart, MessageRole } from '@ollm/core';
import type { ChatExchange, ChatOutcome, RenderedBody } from '../chat-exchange.js';
import { splitIntoDeltas } from '../chat-exchange.js';

// OpenAI's Responses wire format (`/v1/responses`), as the official `openai` client reads it
// (`client.responses.create`, streamed or not, and `client.responses.stream`).
const SSE = 'text/event-stream; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const CREATED = 1_767_225_600;
/** Function-call arguments stream in slices of this many characters. */
const ARGUMENT_SLICE = 16;

type WireRecord = Record<string, unknown>;
const isRecord = (value: unknown): value is WireRecord => value !== null && typeof value === 'object' && !Array.isArray(value);

/** A Responses request: its input items (the instructions first, as a system message) and what the reply echoes. */
export interface ResponsesExchange extends ChatExchange {
  /** The input as items: a string input is one user message; `instructions` come first as a system message. */
  readonly messages: readonly WireRecord[];
  readonly instructions: string | null;
  /** The request's `tools`, echoed in the response as OpenAI does. */
  readonly tools: readonly unknown[];
}

export function parseResponsesRequest(body: WireRecord): ResponsesExchange {
  const maxTokens = typeof body['max_output_tokens'] === 'number' && Number.isFinite(body['max_output_tokens']) ? body['max_output_tokens'] : undefined;
  const input = body['input'];
  const items: WireRecord[] =
    typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : Array.isArray(input) ? input.filter(isRecord) : [];
  const instructions = typeof body['instructions'] === 'string' ? body['instructions'] : null;
  return {
    model: typeof body['model'] === 'string' ? body['model'] : '',
    messages: instructions === null ? items : [{ type: 'message', role: 'system', content: instructions }, ...items],
    instructions,
    tools: Array.isArray(body['tools']) ? body['tools'] : [],
    stream: body['stream'] === true,
    includeUsage: true,
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}

/** The text of a message's content: a string, or the text parts (input_text, output_text, refusal) of an array. */
function contentParts(content: unknown): MessagePart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(isRecord).flatMap((part): MessagePart[] => {
    const text = typeof part['text'] === 'string' ? part['text'] : typeof part['refusal'] === 'string' ? part['refusal'] : undefined;
    return text === undefined ? [] : [{ type: 'text', text }];
  });
}

function outputText(output: unknown): string {
  return typeof output === 'string'
    ? output
    : contentParts(output)
        .map((part) => (part.type === 'text' ? part.text : ''))
        .join('\n');
}

function roleOf(role: unknown): MessageRole {
  return role === 'assistant' ? 'assistant' : role === 'system' || role === 'developer' ? 'system' : 'user';
}

function parsedArguments(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

/** One input item as a core message, or undefined for items the model does not read as text (item references, hosted tool calls). */
function itemToMessage(item: WireRecord, index: number): Message | undefined {
  const id = `wire-${index}`;
  const type = item['type'];
  // An item with a role and content but no type is a message too (the EasyInputMessage shape).
  if (type === 'message' || (type === undefined && 'role' in item && 'content' in item)) {
    return { id, role: roleOf(item['role']), parts: contentParts(item['content']) };
  }
  switch (type) {
    case 'function_call': {
      const rawInput = typeof item['arguments'] === 'string' ? item['arguments'] : JSON.stringify(item['arguments'] ?? {});
      const callId = String(item['call_id'] ?? item['id'] ?? '');
      return { id, role: 'assistant', parts: [{ type: 'tool-call', callId, name: String(item['name'] ?? ''), input: parsedArguments(rawInput), rawInput }] };
    }
    case 'function_call_output':
      return { id, role: 'tool', parts: [{ type: 'tool-result', callId: String(item['call_id'] ?? ''), output: outputText(item['output']) }] };
    case 'reasoning': {
      const texts = [item['summary'], item['content']].flatMap((list) =>
        Array.isArray(list) ? list.filter(isRecord).flatMap((part) => (typeof part['text'] === 'string' ? [part['text']] : [])) : [],
      );
      return { id, role: 'assistant', parts: texts.map((text) => ({ type: 'reasoning', text })) };
    }
    default:
      return undefined;
  }
}

/** The items of a Responses request as core messages, so the server counts what it received. */
export function responsesToMessages(items: readonly WireRecord[] | undefined): Message[] {
  return (items ?? []).flatMap((item, index) => itemToMessage(item, index) ?? []);
}

function callItemId(callId: string): string {
  return `fc_${callId.replace(/^call_/, '')}`;
}

/** The output items of the reply: a message (when it has text, or makes no calls), then its function calls. */
function outputItems(outcome: ChatOutcome, messageId: string): WireRecord[] {
  const status = outcome.finishReason === 'length' ? 'incomplete' : 'completed';
  return [
    ...(outcome.text !== '' || !outcome.toolCalls
      ? [{ type: 'message', id: messageId, status, role: 'assistant', content: [{ type: 'output_text', text: outcome.text, annotations: [], logprobs: [] }] }]
      : []),
    ...(outcome.toolCalls ?? []).map((call) => ({
      type: 'function_call',
      id: callItemId(call.id),
      call_id: call.id,
      name: call.name,
      arguments: JSON.stringify(call.arguments ?? {}),
      status: 'completed',
    })),
  ];
}

function responseObject(exchange: ResponsesExchange, id: string, fields: { status: string; output: WireRecord[]; outcome?: ChatOutcome }): WireRecord {
  const { outcome } = fields;
  const incomplete = outcome?.finishReason === 'length';
  return {
    id,
    object: 'response',
    created_at: CREATED,
    status: fields.status,
    background: false,
    completed_at: fields.status === 'completed' ? CREATED : null,
    error: null,
    incomplete_details: incomplete ? { reason: 'max_output_tokens' } : null,
    instructions: exchange.instructions,
    max_output_tokens: exchange.maxTokens ?? null,
    metadata: {},
    model: exchange.model,
    output: fields.output,
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store: false,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: exchange.tools,
    top_p: 1,
    truncation: 'disabled',
    usage: outcome
      ? {
          input_tokens: outcome.promptTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: outcome.completionTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: outcome.promptTokens + outcome.completionTokens,
        }
      : null,
  };
}

function slices(text: string, size: number): string[] {
  const out: string[] = [];
  for (let start = 0; start < text.length; start += size) out.push(text.slice(start, start + size));
  return out;
}

/**
 * The reply as a `response` object, or as the SSE events the client assembles it from
 * (`event: <type>` / `data: {type, sequence_number, ...}`), ending in `response.completed`
 * (`response.incomplete` when cut at `max_output_tokens`) with the whole response and its usage.
 */
export function renderResponses(exchange: ResponsesExchange, outcome: ChatOutcome, number: number): RenderedBody {
  const id = `resp_fake_${number}`;
  const output = outputItems(outcome, `msg_fake_${number}`);
  const status = outcome.finishReason === 'length' ? 'incomplete' : 'completed';
  const final = responseObject(exchange, id, { status, output, outcome });
  if (!exchange.stream) return { contentType: JSON_TYPE, chunks: [JSON.stringify(final)] };

  let sequence = 0;
  const chunks: string[] = [];
  const event = (type: string, value: WireRecord) =>
    chunks.push(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...value })}\n\n`);
  const started = responseObject(exchange, id, { status: 'in_progress', output: [] });
  event('response.created', { response: started });
  event('response.in_progress', { response: started });
  output.forEach((item, output_index) => {
    const item_id = String(item['id']);
    if (item['type'] === 'message') {
      const [part] = item['content'] as WireRecord[];
      const text = String(part?.['text'] ?? '');
      const content_index = 0;
      event('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      event('response.content_part.added', { item_id, output_index, content_index, part: { ...part, text: '' } });
      for (const delta of splitIntoDeltas(text)) event('response.output_text.delta', { item_id, output_index, content_index, delta, logprobs: [] });
      event('response.output_text.done', { item_id, output_index, content_index, text, logprobs: [] });
      event('response.content_part.done', { item_id, output_index, content_index, part });
    } else {
      const args = String(item['arguments']);
      event('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      for (const delta of slices(args, ARGUMENT_SLICE)) event('response.function_call_arguments.delta', { item_id, output_index, delta });
      event('response.function_call_arguments.done', { item_id, output_index, name: item['name'], arguments: args });
    }
    event('response.output_item.done', { output_index, item });
  });
  event(status === 'completed' ? 'response.completed' : 'response.incomplete', { response: final });
  return { contentType: SSE, chunks };
}

/** OpenAI's refusal of an input over the model's window, on the Responses route. */
export function responsesWindowError(message: string): WireRecord {
  return { error: { message, type: 'invalid_request_error', param: 'input', code: 'context_length_exceeded' } };
}
