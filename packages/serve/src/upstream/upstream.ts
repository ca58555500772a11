import { InvalidArgumentError, displayURL } from '@ollm/core';

export type UpstreamApi = 'ollama' | 'openai';

/** The model server the proxy forwards to. */
export interface Upstream {
  readonly api: UpstreamApi;
  /** `http://127.0.0.1:11434`, with any base path (`/v1` taken off: clients send it). */
  readonly origin: string;
  /** For messages: the origin with any credentials removed. */
  readonly display: string;
}

/**
 * Reads `--upstream`: an http(s) URL of an Ollama or OpenAI-compatible server, with or without
 * the `/v1` OpenAI clients add (`http://127.0.0.1:8000/v1` and `http://127.0.0.1:8000` are the
 * same upstream). Credentials in the URL are refused: they would end up in logs.
 */
export function parseUpstream(text: string, api: UpstreamApi): Upstream {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidArgumentError({
      argument: 'upstream',
      message: `--upstream must be an http(s) URL such as http://127.0.0.1:11434, got ${JSON.stringify(text)}`,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidArgumentError({ argument: 'upstream', message: `--upstream must be an http(s) URL, got ${url.protocol.slice(0, -1)}:` });
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidArgumentError({
      argument: 'upstream',
      message: `--upstream must not carry credentials (${displayURL(text)}): clients send their own Authorization header, which is forwarded`,
    });
  }
  if (url.search !== '' || url.hash !== '') {
    throw new InvalidArgumentError({ argument: 'upstream', message: `--upstream must not have a query or fragment, got ${displayURL(text)}` });
  }
  const path = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  const origin = `${url.origin}${path}`;
  return { api, origin, display: origin };
}
