import type { LanguageModel } from '@ollm/core';
import { startFakeModelServer, type FakeModelServer, type RecordedRequest } from '@ollm/fake-model-server';
import { createOllamaModel } from '@ollm/model-ollama';
import { createOpenAIModel } from '@ollm/model-openai';

export type ClientKind = 'ollama' | 'openai';
export const CLIENT_KINDS: readonly ClientKind[] = ['ollama', 'openai'];

export interface ModelSettings {
  readonly timeoutMs?: number;
  readonly maxRetries?: number;
}

/** A real client library pointed at the loopback fake server, with short retry delays for tests. */
export function createModel(server: FakeModelServer, kind: ClientKind, settings: ModelSettings = {}): LanguageModel {
  const common = {
    model: 'fake-llama:8b',
    timeoutMs: settings.timeoutMs ?? 10_000,
    maxRetries: settings.maxRetries ?? 2,
    retryDelay: { initialDelayMs: 10, maxDelayMs: 50 },
  };
  return kind === 'ollama' ? createOllamaModel({ ...common, host: server.url }) : createOpenAIModel({ ...common, baseURL: `${server.url}/v1` });
}

export { startFakeModelServer };
export type { FakeModelServer };

/** The chat requests the server received (describe / list calls excluded). */
export function chatRequests(server: FakeModelServer): RecordedRequest[] {
  return server.requests.filter((request) => request.path === '/api/chat' || request.path === '/v1/chat/completions');
}
