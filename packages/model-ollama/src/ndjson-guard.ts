import { ModelResponseError } from '@ollm/core';

/** How much of a bad line an error quotes. */
const EXCERPT_CHARACTERS = 120;

/**
 * A streamed (NDJSON) response whose lines are checked as they pass: the first line that is not
 * JSON fails the stream with a `ModelResponseError`. The `ollama` client would otherwise print
 * `invalid json: …` to the console and drop the line, losing part of the reply without a word.
 * Bytes pass through unchanged; non-streamed responses are returned as they are.
 */
export function guardNdjsonResponse(response: Response, host: string): Response {
  const type = response.headers.get('content-type') ?? '';
  if (!response.body || !/ndjson/i.test(type)) return response;
  const decoder = new TextDecoder();
  let pending = '';
  const check = (line: string, controller: TransformStreamDefaultController<Uint8Array>): boolean => {
    if (line.trim().length === 0) return true;
    try {
      JSON.parse(line);
      return true;
    } catch {
      const excerpt = line.length > EXCERPT_CHARACTERS ? `${line.slice(0, EXCERPT_CHARACTERS)}…` : line;
      controller.error(
        new ModelResponseError({ provider: 'ollama', message: `Ollama server at ${host} sent a stream line that is not JSON: ${JSON.stringify(excerpt)}` }),
      );
      return false;
    }
  };
  const guard = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      pending += decoder.decode(chunk, { stream: true });
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (!check(line, controller)) return;
      controller.enqueue(chunk);
    },
    flush(controller) {
      pending += decoder.decode();
      check(pending, controller);
    },
  });
  return new Response(response.body.pipeThrough(guard), { status: response.status, statusText: response.statusText, headers: response.headers });
}
