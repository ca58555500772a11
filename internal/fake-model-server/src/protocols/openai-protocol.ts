import type { ChatExchange, ChatOutcome, FakeModel, RenderedBody } from '../chat-exchange.js';
import { splitIntoDeltas } from '../chat-exchange.js';
import type { OpenAIContextShape } from './openai-context-shape.js';
import { openAIContextFields } from './openai-context-shape.js';

// OpenAI's chat.completions wire format, as the official `openai` client reads it.
const SSE = 'text/event-stream; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const CREATED = 1_767_225_600;
const FINGERPRINT = 'fp_fake';

function numberOrUndefined(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function parseOpenAIChat(body: Record<string, unknown>): ChatExchange & { messages: unknown } {
  const streamOptions = (body['stream_options'] ?? {}) as Record<string, unknown>;
  const maxTokens = numberOrUndefined(body['max_completion_tokens']) ?? numberOrUndefined(body['max_tokens']);
  return {
    model: typeof body['model'] === 'string' ? body['model'] : '',
    messages: body['messages'],
    stream: body['stream'] === true,
    includeUsage: streamOptions['include_usage'] === true,
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}

function usage(outcome: ChatOutcome) {
  return {
    prompt_tokens: outcome.promptTokens,
    completion_tokens: outcome.completionTokens,
    total_tokens: outcome.promptTokens + outcome.completionTokens,
  };
}

function openAIToolCall(call: { id: string; name: string; arguments: unknown }) {
  return { id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments ?? {}) } };
}

function event(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

export function renderOpenAIChat(exchange: ChatExchange, outcome: ChatOutcome, id: string): RenderedBody {
  if (!exchange.stream) {
    const body = {
      id,
      object: 'chat.completion',
      created: CREATED,
      model: exchange.model,
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: outcome.toolCalls && outcome.text === '' ? null : outcome.text,
            refusal: null,
            ...(outcome.toolCalls ? { tool_calls: outcome.toolCalls.map(openAIToolCall) } : {}),
          },
          logprobs: null,
          finish_reason: outcome.finishReason,
        },
      ],
      usage: usage(outcome),
      system_fingerprint: FINGERPRINT,
    };
    return { contentType: JSON_TYPE, chunks: [JSON.stringify(body)] };
  }
  // With include_usage every chunk carries `usage: null` and one last chunk with no choices carries it.
  const usageField = exchange.includeUsage ? { usage: null } : {};
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
    event({
      id,
      object: 'chat.completion.chunk',
      created: CREATED,
      model: exchange.model,
      system_fingerprint: FINGERPRINT,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...usageField,
    });
  const events = [chunk({ role: 'assistant', content: '', refusal: null }, null)];
  for (const delta of splitIntoDeltas(outcome.text)) events.push(chunk({ content: delta }, null));
  for (const [index, call] of (outcome.toolCalls ?? []).entries()) events.push(chunk({ tool_calls: [{ index, ...openAIToolCall(call) }] }, null));
  events.push(chunk({}, outcome.finishReason));
  if (exchange.includeUsage) {
    events.push(
      event({
        id,
        object: 'chat.completion.chunk',
        created: CREATED,
        model: exchange.model,
        system_fingerprint: FINGERPRINT,
        choices: [],
        usage: usage(outcome),
      }),
    );
  }
  events.push('data: [DONE]\n\n');
  return { contentType: SSE, chunks: events };
}

export function renderOpenAIMalformed(exchange: ChatExchange): RenderedBody {
  const broken = '{"id":"chatcmpl-fake","object":"chat.completion","choices":[{"index":0,"message":{"content":"trunc';
  return exchange.stream ? { contentType: SSE, chunks: [`data: ${broken}\n\n`, 'data: [DONE]\n\n'] } : { contentType: JSON_TYPE, chunks: [broken] };
}

export function renderOpenAIWrongShape(exchange: ChatExchange): RenderedBody {
  const body = { object: 'unexpected', result: { text: 'this is not a chat completion' } };
  return exchange.stream ? { contentType: SSE, chunks: [event(body), 'data: [DONE]\n\n'] } : { contentType: JSON_TYPE, chunks: [JSON.stringify(body)] };
}

export function openAIError(status: number, message: string): unknown {
  const type = status === 429 ? 'rate_limit_exceeded' : status >= 500 ? 'server_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: null } };
}

/** One `/v1/models` entry (also the body of `GET /v1/models/{id}`). */
export function openAIModel(model: FakeModel, shape: OpenAIContextShape | undefined): unknown {
  return { id: model.name, object: 'model', created: CREATED, owned_by: 'fake', ...openAIContextFields(model, shape) };
}

export function openAIModels(models: readonly FakeModel[], shape: OpenAIContextShape | undefined): unknown {
  return { object: 'list', data: models.map((model) => openAIModel(model, shape)) };
}
