import type { FakeModelServer } from './fake-model-server.js';
import type { RecordedRequest } from './recorded-request.js';

/** The chat paths of the Ollama and OpenAI protocols (chat completions, Responses). */
export const CHAT_PATHS: readonly string[] = ['/api/chat', '/v1/chat/completions', '/v1/messages', '/v1/responses'];

/** The chat requests the server received (describe / list calls excluded). */
export function chatRequests(server: FakeModelServer): RecordedRequest[] {
  return server.requests.filter((request) => CHAT_PATHS.includes(request.path));
}
