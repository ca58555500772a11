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
  /** An error body in the API's own shape. */
  errorBody(status: number, message: string, type: string): unknown;
}

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
  errorBody: (_status, message) => ({ error: message }),
};

export const CHAT_DIALECTS: readonly ChatDialect[] = [OPENAI_DIALECT, OLLAMA_DIALECT];

/** The dialect whose chat route `path` is, if any. */
export function chatDialectFor(path: string): ChatDialect | undefined {
  return CHAT_DIALECTS.find((dialect) => dialect.chatPath === path);
}
