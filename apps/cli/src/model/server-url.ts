import { displayURL, InvalidArgumentError } from '@ollm/core';

/** The address as it may be printed: without `user:password@`, even when it is not a valid URL. */
function printable(text: string): string {
  return displayURL(text).replace(/^([a-z][a-z0-9+.-]*:\/\/)?[^/@\s]*@/i, '$1');
}

/**
 * A model server address from a flag (`--host`, `--base-url`), checked before anything connects:
 * `host:port` gets `http://`; anything else must be an http(s) URL without credentials (a key
 * goes in `OPENAI_API_KEY`, never in a URL that error messages and logs would print). A bad one is
 * an `InvalidArgumentError` (exit 2) that names the flag, never the credentials.
 */
export function checkServerUrl(flag: string, value: string): string {
  const text = value.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new InvalidArgumentError({ argument: flag, message: `--${flag} ${JSON.stringify(printable(text))} is not a URL; use e.g. http://127.0.0.1:11434` });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError({
      argument: flag,
      message: `--${flag} ${JSON.stringify(printable(text))} uses ${url.protocol.replace(/:$/, '')}://; model servers are reached over http:// or https://`,
    });
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidArgumentError({
      argument: flag,
      message: `--${flag} ${JSON.stringify(printable(text))}: credentials in the URL are not used; give a key with OPENAI_API_KEY (the URL was not printed with them)`,
    });
  }
  if (/\s/.test(text)) throw new InvalidArgumentError({ argument: flag, message: `--${flag} ${JSON.stringify(printable(text))} is not a URL (it has spaces)` });
  return withScheme;
}

/** `--timeout SECONDS`: how long one model call may take, retries included; a positive number. */
export function parseTimeoutSeconds(value: string): number {
  const seconds = Number(value.trim());
  if (value.trim().length === 0 || !Number.isFinite(seconds) || seconds <= 0) {
    throw new InvalidArgumentError({ argument: 'timeout', message: `Invalid --timeout "${value}": use a number of seconds above 0, e.g. 600.` });
  }
  return seconds;
}
