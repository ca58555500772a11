import type { IncomingMessage, ServerResponse } from 'node:http';

export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = JSON.stringify(value);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...headers,
  });
  response.end(body);
}

/** Writes the given chunks in order; `cutAfter` destroys the socket after that many chunks. */
export async function writeChunks(response: ServerResponse, contentType: string, chunks: readonly string[], cutAfter?: number): Promise<void> {
  // A client reads a body on a `connection: close` socket as ending when the socket closes, so a
  // cut would look complete: a cut stream keeps the connection open and uses chunked framing.
  if (cutAfter !== undefined) response.removeHeader('connection');
  response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-cache', 'transfer-encoding': 'chunked' });
  for (const [index, chunk] of chunks.entries()) {
    if (cutAfter !== undefined && index >= cutAfter) break;
    response.write(chunk);
    // Yield so chunks leave as separate writes, as a real server streaming tokens would send them.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (cutAfter !== undefined) {
    response.socket?.destroy();
    return;
  }
  response.end();
}
