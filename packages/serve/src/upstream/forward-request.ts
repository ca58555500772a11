import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Upstream } from './upstream.js';
import { upstreamTimeout, upstreamUnavailable } from './upstream-errors.js';

/** Headers that belong to one connection, never forwarded (RFC 9110 section 7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
]);

export interface ForwardOptions {
  readonly upstream: Upstream;
  readonly method: string;
  /** Path and query, as the client sent them. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer | undefined;
  /** Aborts the upstream request (the client went away). */
  readonly signal: AbortSignal;
  /** How long the upstream may take to start answering. */
  readonly timeoutMs: number;
  /** Connections kept open to the upstream between requests. */
  readonly agents: UpstreamAgents;
}

export interface UpstreamAgents {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
  destroy(): void;
}

/** Keep-alive connection pools for the upstream, one per scheme. */
export function createUpstreamAgents(): UpstreamAgents {
  const http = new HttpAgent({ keepAlive: true });
  const https = new HttpsAgent({ keepAlive: true });
  return {
    http,
    https,
    destroy() {
      http.destroy();
      https.destroy();
    },
  };
}

/**
 * Sends one request to the upstream and resolves to its response as it starts, the body still
 * streaming: the bytes are the upstream's, never decoded or re-encoded. Connection failures
 * become a 502 `ProxyError`, no answer within the timeout a 504.
 */
export function forwardRequest(options: ForwardOptions): Promise<IncomingMessage> {
  const { upstream, body, signal } = options;
  const target = new URL(upstream.origin);
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(options.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name) && name !== 'host' && name !== 'content-length') headers[name] = value;
  }
  headers['host'] = target.host;
  if (body !== undefined) headers['content-length'] = body.byteLength;
  const secure = target.protocol === 'https:';
  const send = secure ? httpsRequest : httpRequest;
  return new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = send(
      {
        protocol: target.protocol,
        hostname: target.hostname,
        port: target.port,
        method: options.method,
        path: `${target.pathname.replace(/\/$/, '')}${options.path}`,
        headers,
        signal,
        agent: secure ? options.agents.https : options.agents.http,
      },
      (response) => {
        clearTimeout(timer);
        resolve(response);
      },
    );
    const timer = setTimeout(() => outgoing.destroy(upstreamTimeout(upstream.display, options.timeoutMs)), options.timeoutMs);
    outgoing.on('error', (error: Error & { code?: string }) => {
      clearTimeout(timer);
      if (signal.aborted) reject(signal.reason ?? error);
      else if ((error as { code?: string }).code === 'upstream-timeout') reject(error);
      else reject(upstreamUnavailable(upstream.display, error));
    });
    outgoing.end(body);
  });
}

/** The upstream's response headers a client should get (hop-by-hop ones dropped). */
export function responseHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  return kept;
}
