import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TokenCounter, createTokenizer } from '@ollm/core';
import type { ChatExchange, FakeModel, FakeToolCall, RenderedBody } from './chat-exchange.js';
import { DEFAULT_FAKE_MODELS } from './chat-exchange.js';
import type { Fault, FaultInput } from './fault.js';
import { FaultQueue } from './fault.js';
import { readBody, sendJson, writeChunks } from './http-io.js';
import {
  ollamaError,
  ollamaPs,
  ollamaShow,
  ollamaTags,
  parseOllamaChat,
  renderOllamaChat,
  renderOllamaMalformed,
  renderOllamaWrongShape,
} from './protocols/ollama-protocol.js';
import type { OpenAIContextShape } from './protocols/openai-context-shape.js';
import { llamaServerProps } from './protocols/openai-context-shape.js';
import {
  openAIError,
  openAIModel,
  openAIModels,
  parseOpenAIChat,
  renderOpenAIChat,
  renderOpenAIMalformed,
  renderOpenAIWrongShape,
} from './protocols/openai-protocol.js';
import type { RecordedRequest } from './recorded-request.js';
import type { FakeChatRequest } from './reply/compose-reply.js';
import { decideOutcome } from './reply/decide-outcome.js';
import { wireToMessages } from './wire-messages.js';
import { anthropicError, anthropicToMessages, parseAnthropicChat, renderAnthropicChat } from './protocols/anthropic-protocol.js';
import { parseResponsesRequest, renderResponses, responsesToMessages, responsesWindowError } from './protocols/responses-protocol.js';

export interface FakeModelServerOptions {
  /** Default 0: a free port. */
  readonly port?: number;
  readonly models?: readonly FakeModel[];
  /** Answer 404 for models not in `models` (as Ollama does); default false: any name works. */
  readonly strictModels?: boolean;
  /** Custom replies; return undefined to fall back to the built-in deterministic reply. */
  readonly reply?: (request: FakeChatRequest) => string | undefined;
  /**
   * Tool calls the model makes instead of a final answer (finish reason `tool_calls`), e.g. while
   * the request offers tools and the agent's task is not done; undefined or empty: a text reply.
   * The text is then `reply`'s, or empty.
   */
  readonly toolCalls?: (request: FakeChatRequest) => readonly FakeToolCall[] | undefined;
  /**
   * Where `/v1/models` (and `/v1/models/{id}`) report each model's context length, as vLLM,
   * LM Studio, llama.cpp server (which also answers `GET /props`) or OpenRouter do. Default:
   * not reported, as OpenAI's own API.
   */
  readonly openAIContextShape?: OpenAIContextShape;
  /**
   * Scales the prompt size the server reports (`prompt_eval_count`, `usage.prompt_tokens`), as
   * servers that under-report a cached or cut prompt do; default 1. Recorded counts stay exact.
   */
  readonly reportedPromptTokenScale?: number;
  /**
   * Refuse a chat whose prompt (as reported: scaled by `reportedPromptTokenScale`) plus reply limit is over the model's window (`loadedContextLength`,
   * else `contextLength`; for Ollama, a request's `options.num_ctx` when smaller), with a 400 as
   * vLLM and OpenAI answer (`context_length_exceeded`), instead of answering it. Default false.
   */
  readonly enforceWindow?: boolean;
  /**
   * Answer a chat over the window as Ollama does instead (unless `enforceWindow`): the oldest
   * messages after the system prompt are dropped, silently, until the prompt fits, and the prompt
   * size reported is the cut one (at most the window). Default false.
   */
  readonly truncateOverWindow?: boolean;
}

export interface FakeModelServer {
  /** e.g. `http://127.0.0.1:40123` (OpenAI clients add `/v1`). */
  readonly url: string;
  readonly port: number;
  /** Every request received, in order. */
  readonly requests: readonly RecordedRequest[];
  /** Replaces the pending faults: one fault, or a queue applied in order. */
  setFault(faults: FaultInput | readonly FaultInput[]): void;
  /** Ends a `refuse` fault: listens again on the same port. */
  resume(): Promise<void>;
  /** Forgets requests and faults, and listens again if refusing. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

type Protocol = 'ollama' | 'openai' | 'openai-responses' | 'anthropic';

interface Route {
  readonly protocol: Protocol;
  readonly method: string;
  readonly chat?: boolean;
}

const ROUTES: Record<string, Route> = {
  '/api/chat': { protocol: 'ollama', method: 'POST', chat: true },
  '/api/tags': { protocol: 'ollama', method: 'GET' },
  '/api/show': { protocol: 'ollama', method: 'POST' },
  '/api/ps': { protocol: 'ollama', method: 'GET' },
  '/v1/chat/completions': { protocol: 'openai', method: 'POST', chat: true },
  '/v1/messages': { protocol: 'anthropic', method: 'POST', chat: true },
  '/v1/responses': { protocol: 'openai-responses', method: 'POST', chat: true },
  '/v1/models': { protocol: 'openai', method: 'GET' },
};
const MODEL_ROUTE: Route = { protocol: 'openai', method: 'GET' };
const MODEL_PATH_PREFIX = '/v1/models/';
const PROPS_PATH = '/props';

/** The names of the tools a request offers, in OpenAI's and Ollama's shared `tools` shape. */
function toolNamesOf(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((tool) => {
    // OpenAI chat and Ollama nest the name under `function`; Anthropic and OpenAI Responses have it at the top.
    const name = (tool as { function?: { name?: unknown }; name?: unknown } | null)?.function?.name ?? (tool as { name?: unknown } | null)?.name;
    return typeof name === 'string' ? [name] : [];
  });
}

/** Starts a loopback model server speaking the Ollama, OpenAI (chat completions, Responses) and Anthropic protocols, with faults on demand. */
export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const models = options.models ?? DEFAULT_FAKE_MODELS;
  const counter = new TokenCounter(createTokenizer('o200k_base'));
  const requests: RecordedRequest[] = [];
  const faults = new FaultQueue();
  const hanging = new Set<ServerResponse>();
  let completionNumber = 0;
  // Models that answered a chat, as Ollama keeps them loaded (`/api/ps`).
  const loaded = new Set<string>();
  let toolCallNumber = 0;
  let resumeTimer: NodeJS.Timeout | undefined;
  let closing: Promise<void> | undefined;
  let closed = false;

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendJson(response, 500, { error: String(error) });
      else response.destroy();
    });
  });

  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve((server.address() as AddressInfo).port);
      });
    });

  const stopListening = () => {
    closing ??= new Promise<void>((resolve) => server.close(() => resolve()));
    // close() only stops accepting; pooled keep-alive connections would still be served.
    server.closeAllConnections();
    for (const response of hanging) response.destroy();
    hanging.clear();
    return closing;
  };

  const port = await listen(options.port ?? 0);
  const url = `http://127.0.0.1:${port}`;

  const resume = async () => {
    clearTimeout(resumeTimer);
    if (faults.head()?.kind === 'refuse') faults.shift();
    if (closing && !closed) {
      await closing;
      closing = undefined;
      await listen(port);
    }
    applyRefuse();
  };

  function applyRefuse(): void {
    const head = faults.head();
    if (head?.kind !== 'refuse' || closing) return;
    void stopListening();
    if (head.resumeAfterMs !== undefined) resumeTimer = setTimeout(() => void resume(), head.resumeAfterMs);
  }

  function errorBody(protocol: Protocol, status: number, message: string): unknown {
    return protocol === 'ollama' ? ollamaError(message) : protocol === 'anthropic' ? anthropicError(status, message) : openAIError(status, message);
  }

  function findModel(name: string): FakeModel | undefined {
    const found = models.find((model) => model.name === name || model.name === `${name}:latest`);
    if (found || options.strictModels) return found;
    return { ...(models[0] ?? {}), name };
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // No keep-alive: a pooled connection would outlive a `refuse` and hide the refused connect.
    response.setHeader('connection', 'close');
    const path = new URL(request.url ?? '/', url).pathname;
    const text = await readBody(request);
    // `/v1/models/{id}` is one model; `/props` exists only on llama.cpp server.
    const route =
      ROUTES[path] ?? (path.startsWith(MODEL_PATH_PREFIX) || (path === PROPS_PATH && options.openAIContextShape === 'llama-cpp') ? MODEL_ROUTE : undefined);
    const protocol: Protocol =
      path === '/v1/messages'
        ? 'anthropic'
        : path === '/v1/responses'
          ? 'openai-responses'
          : path.startsWith('/v1') || path === PROPS_PATH
            ? 'openai'
            : 'ollama';
    if (!route || route.method !== request.method) {
      sendJson(response, 404, errorBody(protocol, 404, `no route ${request.method} ${path}`));
      return;
    }
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = text;
    }
    const record = (body ?? {}) as Record<string, unknown>;
    const responses = route.chat && protocol === 'openai-responses' ? parseResponsesRequest(record) : undefined;
    const exchange =
      responses ??
      (route.chat && protocol === 'ollama'
        ? parseOllamaChat(record)
        : route.chat && protocol === 'anthropic'
          ? parseAnthropicChat(record)
          : route.chat
            ? parseOpenAIChat(record)
            : undefined);
    const messages = responses
      ? responsesToMessages(responses.messages)
      : protocol === 'anthropic'
        ? anthropicToMessages(exchange?.messages)
        : wireToMessages(exchange?.messages);
    const promptTokens = counter.countMessages(messages);
    const fault = faults.take(path);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
    }
    const model = exchange?.model ?? (typeof record['model'] === 'string' ? record['model'] : undefined);
    const entry: RecordedRequest = {
      method: request.method ?? 'GET',
      path,
      protocol: route.protocol,
      headers,
      body,
      ...(model !== undefined ? { model } : {}),
      messages,
      promptTokens,
      stream: exchange?.stream ?? false,
      ...(exchange?.maxTokens !== undefined ? { maxTokens: exchange.maxTokens } : {}),
      ...(fault ? { fault: fault.kind } : {}),
    };
    requests.push(entry);
    if (fault && (await applyFault(fault, protocol, exchange, response))) return;

    if (route.chat && exchange) {
      if (
        responses
          ? typeof record['model'] !== 'string' || (typeof record['input'] !== 'string' && !Array.isArray(record['input']))
          : typeof record['model'] !== 'string' || !Array.isArray(record['messages'])
      ) {
        sendJson(response, 400, errorBody(protocol, 400, responses ? 'model and input are required' : 'model and messages are required'));
        return;
      }
      if (!findModel(exchange.model)) {
        sendJson(response, 404, errorBody(protocol, 404, `model "${exchange.model}" not found, try pulling it first`));
        return;
      }
      const scale = options.reportedPromptTokenScale ?? 1;
      let reportedPromptTokens = Math.round(promptTokens * scale);
      let replyMessages = messages;
      const window = windowOf(exchange, record);
      if (options.truncateOverWindow && !options.enforceWindow && window !== undefined && reportedPromptTokens > window) {
        // Ollama's silent cut: the oldest messages after the system prompt go until it fits.
        const kept = [...messages];
        const first = kept.findIndex((message) => message.role !== 'system');
        while (kept.length > first + 1 && Math.round(counter.countMessages(kept) * scale) > window) kept.splice(first, 1);
        replyMessages = kept;
        reportedPromptTokens = Math.min(window, Math.round(counter.countMessages(kept) * scale));
        (entry as { truncated?: boolean }).truncated = true;
      }
      // The server's own count decides, as a server with another tokenizer counts.
      const refusal = options.enforceWindow ? windowRefusal(exchange, record, reportedPromptTokens) : undefined;
      if (refusal) {
        sendJson(
          response,
          400,
          protocol === 'ollama'
            ? ollamaError(refusal)
            : protocol === 'anthropic'
              ? anthropicError(400, `prompt is too long: ${refusal}`)
              : protocol === 'openai-responses'
                ? responsesWindowError(refusal)
                : { error: { message: refusal, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
        );
        return;
      }
      loaded.add(exchange.model);
      const chatRequest: FakeChatRequest = {
        protocol,
        model: exchange.model,
        messages: replyMessages,
        toolNames: toolNamesOf(record['tools']),
        ...(exchange.maxTokens !== undefined ? { maxTokens: exchange.maxTokens } : {}),
      };
      const outcome = decideOutcome({
        request: chatRequest,
        promptTokens: reportedPromptTokens,
        fault,
        counter,
        reply: options.reply,
        toolCalls: options.toolCalls,
        nextCallId: () => `call_fake_${++toolCallNumber}`,
      });
      const rendered = responses
        ? renderResponses(responses, outcome, ++completionNumber)
        : protocol === 'ollama'
          ? renderOllamaChat(exchange, outcome)
          : protocol === 'anthropic'
            ? renderAnthropicChat(exchange, outcome, `msg_fake_${++completionNumber}`)
            : renderOpenAIChat(exchange, outcome, `chatcmpl-fake-${++completionNumber}`);
      await writeRendered(response, rendered, fault, exchange.stream);
      if (fault?.kind !== 'cut-stream') (entry as { responseBody?: string }).responseBody = rendered.chunks.join('');
      return;
    }
    if (path === '/api/tags') return sendJson(response, 200, ollamaTags(models));
    if (path === '/api/ps') return sendJson(response, 200, ollamaPs(models.filter((model) => loaded.has(model.name))));
    if (path === '/v1/models') return sendJson(response, 200, openAIModels(models, options.openAIContextShape));
    if (path === PROPS_PATH) return sendJson(response, 200, llamaServerProps(models[0] ?? { name: 'model' }));
    if (path.startsWith(MODEL_PATH_PREFIX)) {
      const id = decodeURIComponent(path.slice(MODEL_PATH_PREFIX.length));
      const found = findModel(id);
      if (!found) return sendJson(response, 404, openAIError(404, `The model '${id}' does not exist`));
      return sendJson(response, 200, openAIModel(found, options.openAIContextShape));
    }
    const name = String(record['model'] ?? record['name'] ?? '');
    const shown = findModel(name);
    if (!shown) return sendJson(response, 404, ollamaError(`model '${name}' not found`));
    sendJson(response, 200, ollamaShow(shown));
  }

  /** Why a chat does not fit its model's window, or undefined when it does. */
  function windowRefusal(exchange: ChatExchange, record: Record<string, unknown>, promptTokens: number): string | undefined {
    const window = windowOf(exchange, record);
    if (window === undefined) return undefined;
    const requested = promptTokens + (exchange.maxTokens ?? 0);
    if (requested <= window) return undefined;
    return `This model's maximum context length is ${window} tokens. However, you requested ${requested} tokens (${promptTokens} in the messages, ${exchange.maxTokens ?? 0} in the completion). Please reduce the length of the messages or completion.`;
  }

  /** The window a chat runs with: the model's (as served), or Ollama's `num_ctx` when smaller; undefined when the model has none. */
  function windowOf(exchange: ChatExchange, record: Record<string, unknown>): number | undefined {
    const model = findModel(exchange.model);
    const served = model?.loadedContextLength ?? model?.contextLength;
    if (served === undefined) return undefined;
    const requestOptions = record['options'];
    const numCtx = typeof requestOptions === 'object' && requestOptions !== null ? (requestOptions as Record<string, unknown>)['num_ctx'] : undefined;
    return typeof numCtx === 'number' && numCtx > 0 ? Math.min(numCtx, served) : served;
  }

  async function writeRendered(response: ServerResponse, rendered: RenderedBody, fault: Fault | undefined, stream: boolean): Promise<void> {
    if (fault?.kind !== 'cut-stream') return writeChunks(response, rendered.contentType, rendered.chunks);
    if (stream) return writeChunks(response, rendered.contentType, rendered.chunks, fault.chunks ?? 2);
    const whole = rendered.chunks.join('');
    const half = Math.floor(whole.length / 2);
    return writeChunks(response, rendered.contentType, [whole.slice(0, half), whole.slice(half)], 1);
  }

  /** Applies a fault; true when it produced the whole response. */
  async function applyFault(fault: Fault, protocol: Protocol, exchange: ChatExchange | undefined, response: ServerResponse): Promise<boolean> {
    switch (fault.kind) {
      case 'status-500':
        sendJson(response, 500, errorBody(protocol, 500, 'fake internal server error'));
        return true;
      case 'status-429': {
        const retryAfter = fault.retryAfter ?? String(fault.retryAfterSeconds ?? 1);
        sendJson(response, 429, errorBody(protocol, 429, 'fake rate limit'), { 'retry-after': retryAfter });
        return true;
      }
      case 'status': {
        const status = fault.status ?? 400;
        sendJson(response, status, errorBody(protocol, status, fault.message ?? `fake status ${status}`));
        return true;
      }
      case 'hang':
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return true;
      case 'malformed':
      case 'wrong-shape': {
        const chat = exchange ?? { model: '', stream: false, includeUsage: false };
        const render =
          fault.kind === 'malformed'
            ? protocol === 'ollama'
              ? renderOllamaMalformed
              : renderOpenAIMalformed
            : protocol === 'ollama'
              ? renderOllamaWrongShape
              : renderOpenAIWrongShape;
        const rendered = render(chat);
        await writeChunks(response, rendered.contentType, rendered.chunks);
        return true;
      }
      case 'cut-stream':
        if (exchange) return false;
        // Not a chat: cut a JSON body in the middle.
        await writeChunks(response, 'application/json', ['{"models":[{"name":"cut'], 1);
        return true;
      default:
        // empty and too-long shape the reply; refuse never reaches a request.
        return false;
    }
  }

  return {
    url,
    port,
    requests,
    setFault(input) {
      faults.replace(Array.isArray(input) ? input : [input as FaultInput]);
      applyRefuse();
    },
    resume,
    async reset() {
      faults.clear();
      requests.length = 0;
      await resume();
    },
    async close() {
      clearTimeout(resumeTimer);
      faults.clear();
      closed = true;
      await stopListening();
    },
  };
}
