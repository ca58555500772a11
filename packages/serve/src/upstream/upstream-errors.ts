import { OllmError } from '@ollm/core';

/** An error the proxy answers with a status of its own, in the API's error shape. */
export class ProxyError extends OllmError {
  readonly status: number;
  /** The OpenAI-style error `type`. */
  readonly type: string;
  /** What the client is told, when it differs from the log's `message` (an overflow in the words clients look for). */
  readonly clientMessage: string;

  constructor({
    message,
    code,
    status,
    type,
    cause,
    clientMessage,
  }: {
    message: string;
    code: string;
    status: number;
    type: string;
    cause?: unknown;
    clientMessage?: string;
  }) {
    super({ message, code, ...(cause !== undefined ? { cause } : {}) });
    this.name = 'ProxyError';
    this.status = status;
    this.type = type;
    this.clientMessage = clientMessage ?? message;
  }
}

/** The upstream could not be reached, or broke the connection: 502. */
export function upstreamUnavailable(upstream: string, cause: unknown): ProxyError {
  const code = (cause as { code?: unknown } | undefined)?.code;
  return new ProxyError({
    message: `ollm serve: the upstream ${upstream} is not reachable${typeof code === 'string' ? ` (${code})` : ''}; is the model server running?`,
    code: 'upstream-unavailable',
    status: 502,
    type: 'upstream_unavailable',
    cause,
  });
}

/** The upstream sent no response within the timeout: 504. */
export function upstreamTimeout(upstream: string, timeoutMs: number): ProxyError {
  return new ProxyError({
    message: `ollm serve: the upstream ${upstream} sent no response within ${Math.round(timeoutMs / 1000)} s (--timeout)`,
    code: 'upstream-timeout',
    status: 504,
    type: 'upstream_timeout',
  });
}
