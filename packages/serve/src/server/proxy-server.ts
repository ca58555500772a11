import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  createTokenizer,
  formatInteger,
  InvalidTranscriptError,
  readContextOverflowRefusal,
  OllmError,
  silentLogger,
  TokenCounter,
  type ContextProvider,
  type LanguageModel,
  type Logger,
  type MessageShapeRuleSet,
  type ProviderOptions,
  type TokenEncoding,
} from '@ollm/core';
import { CALIBRATION_CEILING, TokenCalibration } from '@ollm/runtime';
import { MAX_TRANSCRIPT_BYTES, parseJsonBody } from '@ollm/transcripts';
import { RequestCompactor, type RequestReport } from '../compaction/request-compactor.js';
import type { ProxyStore } from '../store/proxy-store.js';
import { createUpstreamAgents, forwardRequest, responseHeaders } from '../upstream/forward-request.js';
import { ModelWindows } from '../upstream/model-windows.js';
import { watchReportedPromptTokens } from '../upstream/reported-prompt-tokens.js';
import { reportedCutPrompt } from '../upstream/silent-truncation.js';
import { parseUpstream, type UpstreamApi } from '../upstream/upstream.js';
import { ProxyError } from '../upstream/upstream-errors.js';
import { ANTHROPIC_DIALECT, chatDialectFor, OLLAMA_DIALECT, OPENAI_DIALECT, RESPONSES_DIALECT, type ChatDialect } from './chat-dialect.js';
import { CONTEXT_HEADER, contextHeader, contextLogLine } from './context-report.js';

/** Anthropic's token count route: answered by the proxy, with what it would send. */
const COUNT_TOKENS_PATH = '/v1/messages/count_tokens';

/** `ollm serve`'s default port (Ollama's is 11434). */
export const DEFAULT_SERVE_PORT = 11500;
/** Loopback only unless told otherwise. */
export const DEFAULT_SERVE_ADDRESS = '127.0.0.1';
export const DEFAULT_UPSTREAM_TIMEOUT_MS = 300_000;

export interface ProxyServerOptions {
  /** The model server: `http://127.0.0.1:11434` (Ollama) or an OpenAI-compatible base URL. */
  readonly upstream: string;
  /** How to ask the upstream about its models' windows; default `ollama`. Both chat routes are compacted either way. */
  readonly api?: UpstreamApi;
  /** The address to listen on; default 127.0.0.1. */
  readonly address?: string;
  /** Default 11500; 0 picks a free port. */
  readonly port?: number;
  /** The pipeline's stages, and how it is written (`fold`, `mask,code-aware,trim`). */
  readonly stages: readonly ContextProvider[];
  readonly pipeline: string;
  readonly providerOptions?: ProviderOptions;
  /** For model stages; without one they are skipped. */
  readonly model?: LanguageModel;
  readonly store: ProxyStore;
  /** Where removed content is saved (`<logdir>/removed/`): the ollm home. */
  readonly logdir: string;
  /** `--window`: every model's window, over what the upstream says. */
  readonly window?: number;
  readonly replyReserve?: number;
  readonly targetShare?: number;
  /** Default `strict`: local servers apply chat templates that refuse anything else. */
  readonly shape?: MessageShapeRuleSet;
  readonly encoding?: TokenEncoding;
  readonly logger?: Logger;
  /** How long the upstream may take to start answering; default 300 s. */
  readonly timeoutMs?: number;
  /** Called once per chat request the proxy read, after it was forwarded (tests, the bench). */
  readonly onChat?: (report: RequestReport, details: { readonly path: string; readonly status: number; readonly timeMs: number }) => void;
}

export interface ProxyServer {
  /** e.g. `http://127.0.0.1:11500` (OpenAI clients add `/v1`). */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Starts the proxy: chat requests (`/v1/chat/completions`, `/api/chat`) are made to fit their
 * model's window and forwarded, every other request is forwarded as it came, and every response
 * is the upstream's, streamed through byte for byte (with an `x-ollm-context` header on chats).
 */
export async function startProxyServer(options: ProxyServerOptions): Promise<ProxyServer> {
  const upstream = parseUpstream(options.upstream, options.api ?? 'ollama');
  const logger = options.logger ?? silentLogger;
  const timeoutMs = options.timeoutMs ?? DEFAULT_UPSTREAM_TIMEOUT_MS;
  const tokens = new TokenCounter(createTokenizer(options.encoding ?? 'o200k_base'));
  const windows = new ModelWindows({ upstream, logger, timeoutMs, ...(options.window !== undefined ? { window: options.window } : {}) });
  const compactor = new RequestCompactor({
    stages: options.stages,
    pipeline: options.pipeline,
    store: options.store,
    logdir: options.logdir,
    tokens,
    logger,
    shape: options.shape ?? 'strict',
    ...(options.providerOptions ? { providerOptions: options.providerOptions } : {}),
    ...(options.model ? { model: options.model } : {}),
    ...(options.replyReserve !== undefined ? { replyReserve: options.replyReserve } : {}),
    ...(options.targetShare !== undefined ? { targetShare: options.targetShare } : {}),
  });
  const agents = createUpstreamAgents();
  // Per model: how far its server counts above the local count (learnt from reported usage).
  const calibrations = new Map<string, TokenCalibration>();
  const calibrationOf = (model: string): TokenCalibration => {
    let calibration = calibrations.get(model);
    if (!calibration) calibrations.set(model, (calibration = new TokenCalibration()));
    return calibration;
  };
  let warnedStateful = false;
  const warnedCut = new Set<string>();
  // Per model: the least the estimate may be (server count / ollm's count), from what the upstream showed
  // beyond its reported sizes: a refusal as over its window, a prompt it cut.
  const estimateFloors = new Map<string, number>();
  const estimateOf = (model: string): number => Math.min(CALIBRATION_CEILING, Math.max(calibrationOf(model).ratio, estimateFloors.get(model) ?? 1));
  const raiseFloor = (model: string, floor: number) =>
    estimateFloors.set(model, Math.min(CALIBRATION_CEILING, Math.max(estimateFloors.get(model) ?? 1, floor)));
  const app = Fastify({ logger: false, bodyLimit: MAX_TRANSCRIPT_BYTES, forceCloseConnections: true });
  // Bodies stay bytes: what is not a chat goes upstream exactly as it came.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.all('/*', async (request: FastifyRequest, reply: FastifyReply) => {
    const started = performance.now();
    const path = request.url;
    const pathname = path.split('?')[0] ?? path;
    const dialect = request.method === 'POST' ? chatDialectFor(pathname) : undefined;
    const errorDialect = dialect ?? (pathname.startsWith('/v1/messages') ? ANTHROPIC_DIALECT : pathname.startsWith('/v1') ? OPENAI_DIALECT : OLLAMA_DIALECT);
    const controller = new AbortController();
    reply.raw.on('close', () => {
      if (!reply.raw.writableFinished) controller.abort(new Error('the client closed the connection'));
    });
    const original = Buffer.isBuffer(request.body) ? request.body : undefined;
    let body = original;
    let report: RequestReport | undefined;
    let prepareChat: (() => Promise<void>) | undefined;
    let chatWindowRequest: { readonly requestedWindow?: number } | undefined;
    try {
      if (request.method === 'POST' && pathname === COUNT_TOKENS_PATH && body) {
        // Claude Code asks how large its context is before it decides to compact: the answer is what
        // the proxy would send (compacted when it must be, the compaction kept for the request that follows).
        const chat = await readChat(ANTHROPIC_DIALECT, body, request);
        if (chat) {
          const window = await windows.windowFor(chat.model, chat.apiKey !== undefined ? { apiKey: chat.apiKey } : {});
          const calibration = calibrationOf(chat.model).ratio;
          const prepared = await compactor.prepare({
            format: 'anthropic',
            model: chat.model,
            body: chat.body,
            messages: chat.messages,
            window,
            calibration,
            signal: controller.signal,
          });
          const counted = Math.ceil((prepared.report.tokensAfter + prepared.report.toolsTokens) * calibration);
          reply.header(CONTEXT_HEADER, contextHeader(prepared.report)).send({ input_tokens: counted });
          return;
        }
      }
      if (dialect && body) {
        const chat = await readChat(dialect, body, request);
        if (!chat && dialect === RESPONSES_DIALECT && !warnedStateful) {
          warnedStateful = true;
          logger.warn(
            "ollm serve: a /v1/responses request continues a stored response (previous_response_id): the history is the server's, so it goes through uncompacted (Codex sends store: false and the whole history; such requests are compacted)",
          );
        }
        if (chat) {
          chatWindowRequest = chat.requestedWindow !== undefined ? { requestedWindow: chat.requestedWindow } : {};
          const window = await windows.windowFor(chat.model, {
            ...(chat.requestedWindow !== undefined ? { requestedWindow: chat.requestedWindow } : {}),
            ...(chat.apiKey !== undefined ? { apiKey: chat.apiKey } : {}),
          });
          prepareChat = async () => {
            const prepared = await compactor.prepare({
              format: dialect.format,
              model: chat.model,
              body: chat.body,
              messages: chat.messages,
              window,
              calibration: estimateOf(chat.model),
              signal: controller.signal,
              ...(chat.replyLimit !== undefined ? { replyLimit: chat.replyLimit } : {}),
            });
            report = prepared.report;
            if (prepared.messages || prepared.replyLimit !== undefined || prepared.tools !== undefined) {
              const withTools = prepared.tools !== undefined ? { ...chat.body, tools: prepared.tools } : chat.body;
              const sent = prepared.messages ? dialect.withMessages(withTools, prepared.messages) : withTools;
              body = Buffer.from(JSON.stringify(prepared.replyLimit !== undefined ? dialect.withReplyLimit(sent, prepared.replyLimit) : sent));
            } else body = original;
          };
          await prepareChat();
        }
      }
      const forward = () =>
        forwardRequest({ upstream, method: request.method, path, headers: request.headers, body, signal: controller.signal, timeoutMs, agents });
      let response = await forward();
      if (report && prepareChat && report.action !== 'unread' && (response.statusCode === 400 || response.statusCode === 413)) {
        // The upstream counts more than the estimate: it refused the prompt as over its window (llama.cpp's
        // 400). Learn from it, compact to the lower estimate and try once more; any other 400 goes back as it came.
        const refused = await readBody(response);
        const overflow = readContextOverflowRefusal(response.statusCode, refused.toString('utf8'));
        if (overflow) {
          const sent = report.tokensAfter + report.toolsTokens;
          raiseFloor(
            report.model,
            overflow.promptTokens !== undefined && overflow.promptTokens > sent ? (overflow.promptTokens / sent) * 1.02 : report.calibration * 1.15,
          );
          logger.warn(
            `ollm serve: the upstream refused ${report.model}'s prompt as over its window (${overflow.promptTokens !== undefined ? `it counted ${formatInteger(overflow.promptTokens)} tokens, ollm ${formatInteger(sent)}` : 'no count given'}); compacting to a lower estimate and trying once more`,
          );
          await prepareChat();
          response = await forward();
        } else response = replayed(response, refused);
      }
      const reported = report ? watchReportedPromptTokens(response) : undefined;
      await relay(reply, response, report);
      if (report && response.statusCode === 200 && chatWindowRequest) windows.noteServed(report.model, chatWindowRequest);
      if (report) {
        const promptTokens = reported?.();
        if (promptTokens !== undefined && response.statusCode === 200 && report.action !== 'unread') {
          const sent = report.tokensAfter + report.toolsTokens;
          if (reportedCutPrompt({ reported: promptTokens, sent, estimate: Math.ceil(sent * report.calibration), window: report.window })) {
            // Ollama's silent truncation: the size is of what it kept, not of what was sent. Never
            // learnt from as a count; the server counted about the window or more for what was
            // sent, so the estimate goes above that, and the next requests are compacted to it.
            report = { ...report, serverCut: true };
            raiseFloor(report.model, Math.max((report.window / sent) * 1.05, report.calibration * 1.15));
            if (!warnedCut.has(report.model)) {
              warnedCut.add(report.model);
              logger.warn(
                `ollm serve: ${upstream.display} reported ${formatInteger(promptTokens)} prompt tokens for ${report.model}, at its ${formatInteger(report.window)}-token window, for a prompt of ${formatInteger(sent)} by ollm's count: the server counts more than ollm estimated and may have cut the prompt (Ollama drops the oldest messages silently). Not learnt from as a count; the next requests are compacted to a higher estimate${report.windowSource === 'flag' ? '' : ' (if the server runs a smaller window than ollm assumes, set --window)'}`,
              );
            }
          } else calibrationOf(report.model).record(sent, promptTokens);
        }
        const timeMs = performance.now() - started;
        const line = contextLogLine(request.method, pathname, report, timeMs);
        if (line) logger.info(line);
        options.onChat?.(report, { path: pathname, status: response.statusCode ?? 0, timeMs });
      }
    } catch (error) {
      if (controller.signal.aborted) {
        reply.raw.destroy();
        return;
      }
      if (reply.raw.headersSent) {
        // The upstream broke off mid-response: the client sees the connection end, as it would without the proxy.
        reply.raw.destroy();
        return;
      }
      const failure = asProxyError(error);
      // Refusals are the operator's to see too: a client that was turned away, and why.
      if (failure.status >= 500) logger.warn(failure.message);
      else logger.info(`ollm serve: ${request.method} ${pathname} refused with ${failure.status}: ${failure.message.replace(/^ollm serve: /, '')}`);
      if (!reply.sent) {
        reply.hijack();
        const message = failure.overflow === undefined ? failure.message : `${errorDialect.overflowMessage(failure.overflow)} ${failure.message}`;
        const text = JSON.stringify(errorDialect.errorBody(failure.status, message, failure.type));
        reply.raw.writeHead(failure.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        reply.raw.end(text);
      }
    }
  });

  await app.listen({ host: options.address ?? DEFAULT_SERVE_ADDRESS, port: options.port ?? DEFAULT_SERVE_PORT });
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    async close() {
      await app.close();
      agents.destroy();
    },
  };
}

interface ReadChat {
  readonly model: string;
  readonly body: Record<string, unknown>;
  readonly messages: readonly unknown[];
  readonly replyLimit?: number;
  readonly requestedWindow?: number;
  readonly apiKey?: string;
}

/** The chat in a request body; undefined when it is not one (the upstream answers it in its own words). */
async function readChat(dialect: ChatDialect, body: Buffer, request: FastifyRequest): Promise<ReadChat | undefined> {
  let parsed: unknown;
  try {
    parsed = parseJsonBody(body.toString('utf8'), 'request body');
  } catch (error) {
    if (!InvalidTranscriptError.isInstance(error)) throw error;
    throw new ProxyError({ message: error.message, code: 'bad-json', status: 400, type: 'invalid_request_error', cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const record = parsed as Record<string, unknown>;
  const model = record['model'];
  const messages = dialect.messagesOf(record);
  if (typeof model !== 'string' || messages === undefined) return undefined;
  const authorization = request.headers.authorization;
  const apiKey = typeof authorization === 'string' && /^bearer\s+/i.test(authorization) ? authorization.replace(/^bearer\s+/i, '') : undefined;
  const replyLimit = dialect.replyLimit(record);
  const requestedWindow = dialect.requestedWindow(record);
  return {
    model,
    body: record,
    messages,
    ...(replyLimit !== undefined ? { replyLimit } : {}),
    ...(requestedWindow !== undefined ? { requestedWindow } : {}),
    ...(apiKey !== undefined ? { apiKey } : {}),
  };
}

/** The upstream's status, headers and bytes, as they come. */
async function relay(reply: FastifyReply, response: IncomingMessage, report: RequestReport | undefined): Promise<void> {
  reply.hijack();
  const headers = responseHeaders(response.headers);
  if (report) headers[CONTEXT_HEADER] = contextHeader(report);
  reply.raw.writeHead(response.statusCode ?? 502, response.statusMessage, headers);
  reply.raw.flushHeaders();
  await pipeline(response, reply.raw);
}

function asProxyError(error: unknown): ProxyError {
  if (error instanceof ProxyError) return error;
  if (OllmError.isInstance(error) && (error as { status?: unknown }).status === 502) {
    return new ProxyError({ message: error.message, code: error.code, status: 502, type: 'upstream_unavailable', cause: error });
  }
  if (OllmError.isInstance(error) && error.name === 'ModelUnavailableError') {
    return new ProxyError({ message: error.message, code: error.code, status: 502, type: 'upstream_unavailable', cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new ProxyError({ message: `ollm serve: ${message}`, code: 'proxy-error', status: 500, type: 'server_error', cause: error });
}

/** A response's whole body (an error's: small), read off it. */
async function readBody(response: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A response whose body was read, to be relayed all the same: the same status and headers, the bytes read. */
function replayed(response: IncomingMessage, bytes: Buffer): IncomingMessage {
  const copy = Readable.from([bytes]) as unknown as IncomingMessage;
  Object.assign(copy, { statusCode: response.statusCode, statusMessage: response.statusMessage, headers: response.headers });
  return copy;
}
