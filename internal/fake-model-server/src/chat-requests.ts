import type { FakeModelServer } from './fake-model-server.js';
import type { RecordedRequest } from './recorded-request.js';

/** The chat paths of both protocols (Ollama, OpenAI). */
export const CHAT_PATHS: readonly string[] = ['/api/chat', '/v1/chat/completions'];

/** The chat requests the server received (describe / list calls excluded). */
export function chatRequests(server: FakeModelServer): RecordedRequest[] {
  return server.requests.filter((request) => CHAT_PATHS.includes(request.path));
}
