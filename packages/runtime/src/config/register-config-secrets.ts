import { MINIMUM_SECRET_LENGTH, registerSecret } from '@ollm/core';
import type { OllmConfig } from './config-defaults.js';

/**
 * Registers the config's secrets for the process (core's `registerSecret`), the moment they are
 * read: the API key, and the password of a server URL (its user name when it has no password,
 * as a token passed as `https://TOKEN@host`). From then on nothing the process writes or prints
 * holds them. Returns the warnings to show: a key too short to be redacted inside words.
 */
export function registerConfigSecrets(config: Pick<OllmConfig, 'apiKey' | 'host' | 'baseURL'>): string[] {
  registerSecret(config.apiKey);
  for (const url of [config.host, config.baseURL]) {
    if (url === undefined) continue;
    const parsed = URL.canParse(url) ? new URL(url) : undefined;
    if (parsed === undefined || (parsed.username === '' && parsed.password === '')) continue;
    const secret = parsed.password !== '' ? parsed.password : parsed.username;
    registerSecret(secret);
    registerSecret(safeDecode(secret));
  }
  const key = config.apiKey;
  if (key !== undefined && key.length > 0 && key.length < MINIMUM_SECRET_LENGTH) {
    return [
      `OPENAI_API_KEY is ${key.length} character${key.length === 1 ? '' : 's'} long: a key shorter than ${MINIMUM_SECRET_LENGTH} characters is redacted only where it stands alone, not inside words`,
    ];
  }
  return [];
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
