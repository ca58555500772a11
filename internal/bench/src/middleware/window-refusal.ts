/**
 * Whether `error` (or an error in its `cause` chain, as LangChain wraps what a middleware's
 * handler throws) is the fake server's refusal of a prompt over the window: a 400 whose message
 * is OpenAI's `context_length_exceeded` text.
 */
export function isWindowRefusal(error: unknown): boolean {
  for (let current = error, depth = 0; current instanceof Error && depth < 8; current = current.cause, depth += 1) {
    const status = (current as { status?: unknown; statusCode?: unknown }).status ?? (current as { statusCode?: unknown }).statusCode;
    if ((status === 400 || status === undefined) && /maximum context length/.test(current.message)) return true;
  }
  return false;
}
