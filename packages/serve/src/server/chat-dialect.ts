import type { WireFormat } from '@ollm/transcripts';

/** What the proxy needs to know of one chat API: where its chat route is and how its bodies read. */
export interface ChatDialect {
  readonly format: WireFormat;
  /** The route whose requests are compacted. */
  readonly chatPath: string;
  /** The reply limit the client asked for, when it did. */
  replyLimit(body: Record<string, unknown>): number | undefined;
  /** `body` with its reply limit set to `limit` (the field the client used). */
  withReplyLimit(body: Record<string, unknown>, limit: number): Record<string, unknown>;
  /** The window the client asked the server to run the model with (Ollama's `options.num_ctx`). */
  requestedWindow(body: Record<string, unknown>): number | undefined;
  /** The conversation's messages as the compactor reads them (undefined: not a chat ollm reads). */
  messagesOf(body: Record<string, unknown>): unknown[] | undefined;
  /** `body` with `messages` (what `messagesOf` gave, compacted) in place. */
  withMessages(body: Record<string, unknown>, messages: unknown[]): Record<string, unknown>;
  /** How the API says a prompt is over the window: the words its clients look for to compact and retry. */
  overflowMessage(overflow: { readonly window: number; readonly tokens: number }): string;
  /** An error body in the API's own shape. */
  errorBody(status: number, message: string, type: string): unknown;
}

const bodyMessages = (body: Record<string, unknown>): unknown[] | undefined => (Array.isArray(body['messages']) ? body['messages'] : undefined);
const replaceMessages = (body: Record<string, unknown>, messages: unknown[]): Record<string, unknown> => ({ ...body, messages });
const openAiOverflow = ({ window, tokens }: { readonly window: number; readonly tokens: number }): string =>
  `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens.`;

const positiveInteger = (value: unknown): number | undefined => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** OpenAI chat completions (`/v1/chat/completions`), as vLLM, llama.cpp, LM Studio and Ollama serve it. */
export const OPENAI_DIALECT: ChatDialect = {
  format: 'openai',
  chatPath: '/v1/chat/completions',
  replyLimit: (body) => positiveInteger(body['max_completion_tokens']) ?? positiveInteger(body['max_tokens']),
  withReplyLimit: (body, limit) => ({
    ...body,
    ...(positiveInteger(body['max_completion_tokens']) !== undefined ? { max_completion_tokens: limit } : {}),
    ...(positiveInteger(body['max_tokens']) !== undefined ? { max_tokens: limit } : {}),
  }),
  requestedWindow: () => undefined,
  messagesOf: bodyMessages,
  withMessages: replaceMessages,
  overflowMessage: openAiOverflow,
  errorBody: (status, message, type) => ({ error: { message, type, param: null, code: status } }),
};

/** Ollama's own chat API (`/api/chat`). */
export const OLLAMA_DIALECT: ChatDialect = {
  format: 'ollama',
  chatPath: '/api/chat',
  // num_predict -1 (or -2) means "no limit": no reserve asked.
  replyLimit: (body) => positiveInteger(record(body['options'])['num_predict']),
  withReplyLimit: (body, limit) => ({ ...body, options: { ...record(body['options']), num_predict: limit } }),
  requestedWindow: (body) => positiveInteger(record(body['options'])['num_ctx']),
  messagesOf: bodyMessages,
  withMessages: replaceMessages,
  overflowMessage: openAiOverflow,
  errorBody: (_status, message) => ({ error: message }),
};

/**
 * Anthropic Messages (`/v1/messages`), as Ollama (>= 0.14) and llama.cpp serve it and Claude Code
 * speaks it. The top-level `system` (a string or blocks, `cache_control` and all) is read as a
 * first role-system message and written back to `system`; role-system messages inside `messages`
 * stay where they are.
 */
export const ANTHROPIC_DIALECT: ChatDialect = {
  format: 'anthropic',
  chatPath: '/v1/messages',
  replyLimit: (body) => positiveInteger(body['max_tokens']),
  withReplyLimit: (body, limit) => ({ ...body, max_tokens: limit }),
  requestedWindow: () => undefined,
  messagesOf: (body) => {
    const messages = bodyMessages(body);
    if (messages === undefined) return undefined;
    return body['system'] === undefined ? messages : [{ role: 'system', content: body['system'] }, ...messages];
  },
  withMessages: (body, messages) => {
    if (body['system'] === undefined) return replaceMessages(body, messages);
    const [system, ...rest] = messages;
    return { ...body, system: record(system)['content'], messages: rest };
  },
  overflowMessage: ({ window, tokens }) => `prompt is too long: ${tokens} tokens > ${window} maximum`,
  errorBody: (status, message) => ({
    type: 'error',
    error: { type: status === 400 ? 'invalid_request_error' : status === 504 ? 'timeout_error' : 'api_error', message },
  }),
};

/**
 * OpenAI Responses (`/v1/responses`), as Codex speaks it and Ollama serves it, when stateless: the
 * whole history is in `input` (Codex sends `store: false` and no `previous_response_id`). A request
 * that continues a stored response (`previous_response_id`) is the server's to resolve: it goes
 * through as it came. `instructions` is read as a first system message and written back there; a
 * string `input` is one user message.
 */
export const RESPONSES_DIALECT: ChatDialect = {
  format: 'responses',
  chatPath: '/v1/responses',
  replyLimit: (body) => positiveInteger(body['max_output_tokens']),
  withReplyLimit: (body, limit) => ({ ...body, max_output_tokens: limit }),
  requestedWindow: () => undefined,
  messagesOf: (body) => {
    if (body['previous_response_id'] !== undefined && body['previous_response_id'] !== null) return undefined;
    const input = body['input'];
    const items = typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : Array.isArray(input) ? input : undefined;
    if (items === undefined) return undefined;
    return typeof body['instructions'] === 'string' ? [{ type: 'message', role: 'system', content: body['instructions'] }, ...items] : items;
  },
  withMessages: (body, messages) => {
    if (typeof body['instructions'] !== 'string') return { ...body, input: messages };
    const [instructions, ...rest] = messages;
    const content = record(instructions)['content'];
    const text =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content.map((part) => String(record(part)['text'] ?? '')).join('\n')
          : body['instructions'];
    return { ...body, instructions: text, input: rest };
  },
  overflowMessage: openAiOverflow,
  errorBody: (status, message, type) => ({ error: { message, type, param: null, code: type === 'context_length_exceeded' ? type : status } }),
};

export const CHAT_DIALECTS: readonly ChatDialect[] = [OPENAI_DIALECT, OLLAMA_DIALECT, ANTHROPIC_DIALECT, RESPONSES_DIALECT];

/** The dialect whose chat route `path` is, if any. */
export function chatDialectFor(path: string): ChatDialect | undefined {
  return CHAT_DIALECTS.find((dialect) => dialect.chatPath === path);
}
