import type { FakeModelServer } from './fake-model-server.js';

/** The real client libraries the tests drive against the server. */
export type ClientKind = 'ollama' | 'openai';
export const CLIENT_KINDS: readonly ClientKind[] = ['ollama', 'openai'];

export interface FakeClientOptions {
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
}

/** Settings both `createOllamaModel` and `createOpenAIModel` accept; each reads its own address field. */
export interface FakeClientSettings {
  readonly model: string;
  /** For the Ollama client. */
  readonly host: string;
  /** For the OpenAI client. */
  readonly baseURL: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly retryDelay: { readonly initialDelayMs: number; readonly maxDelayMs: number };
}

/**
 * Client settings pointed at `server`, with short retry delays for tests. (The model packages
 * test against this server, so it cannot depend on them: callers pass these to the factories.)
 */
export function fakeClientSettings(server: FakeModelServer, options: FakeClientOptions = {}): FakeClientSettings {
  return {
    model: 'fake-llama:8b',
    host: server.url,
    baseURL: `${server.url}/v1`,
    timeoutMs: options.timeoutMs ?? 10_000,
    maxRetries: options.maxRetries ?? 2,
    retryDelay: { initialDelayMs: 10, maxDelayMs: 50 },
  };
}
