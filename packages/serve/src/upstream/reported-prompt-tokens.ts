import type { IncomingMessage } from 'node:http';

/** Bytes of a response's end kept to find its usage: the usage block comes last in every API. */
const TAIL_BYTES = 8192;
const PROMPT_TOKEN_FIELDS = /"(?:prompt_tokens|prompt_eval_count|input_tokens)"\s*:\s*(\d+)/g;

/**
 * Watches a response go by (it is not changed or held back) and, once it ended, tells the prompt
 * size the server reported: OpenAI's `usage.prompt_tokens` (in a stream, only with
 * `stream_options.include_usage`), Ollama's `prompt_eval_count`. Undefined when it said none.
 */
export function watchReportedPromptTokens(response: IncomingMessage): () => number | undefined {
  let tail = Buffer.alloc(0);
  response.on('data', (chunk: Buffer) => {
    tail = Buffer.concat([tail, chunk]);
    if (tail.length > TAIL_BYTES) tail = tail.subarray(tail.length - TAIL_BYTES);
  });
  return () => {
    let found: number | undefined;
    for (const match of tail.toString('utf8').matchAll(PROMPT_TOKEN_FIELDS)) found = Number(match[1]);
    return found;
  };
}
