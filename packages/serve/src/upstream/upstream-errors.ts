import { OllmError } from '@ollm/core';

/** An error the proxy answers with a status of its own, in the API's error shape. */
export class ProxyError extends OllmError {
  readonly status: number;
  /** The OpenAI-style error `type`. */
  readonly type: string;
  /** A context overflow: the window and the tokens asked for, for the words each API uses to say so. */
  readonly overflow?: { readonly window: number; readonly tokens: number };

  constructor({
    message,
    code,
    status,
    type,
    cause,
    overflow,
  }: {
    message: string;
    code: string;
    status: number;
    type: string;
    cause?: unknown;
    overflow?: { readonly window: number; readonly tokens: number };
  }) {
    super({ message, code, ...(cause !== undefined ? { cause } : {}) });
    this.name = 'ProxyError';
    this.status = status;
    this.type = type;
    if (overflow !== undefined) this.overflow = overflow;
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
