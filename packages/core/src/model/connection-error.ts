// Error codes of a connection that never reached an HTTP response (Node net + undici).
const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
]);

/** The first `code` found along an error's `cause` chain, e.g. `ECONNREFUSED`. */
export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current != null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    const errors = (current as { errors?: unknown }).errors;
    // AggregateError (happy eyeballs tries several addresses): use the first member's code.
    if (Array.isArray(errors) && errors.length > 0) {
      const nested = errorCode(errors[0]);
      if (nested) return nested;
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * True when `error` means the server could not be reached at all (refused, reset before a
 * response, unknown host), as opposed to a server that answered badly.
 */
export function isConnectionError(error: unknown): boolean {
  const code = errorCode(error);
  return (code !== undefined && CONNECTION_CODES.has(code)) || isBlockedPort(error);
}

/**
 * fetch refuses ports the Fetch standard blocks (9, 25, 6000, ...) with `TypeError: fetch failed`
 * caused by `bad port`, before any connection: for the user that is the same as nothing listening.
 */
function isBlockedPort(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current != null && typeof current === 'object'; depth++) {
    if ((current as { message?: unknown }).message === 'bad port') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** A URL without credentials, safe for messages and logs. */
export function displayURL(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
