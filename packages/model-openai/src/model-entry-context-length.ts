/**
 * Reads a context length from what OpenAI-compatible servers say about a model. OpenAI's own
 * `/models` carries none; each compatible server has its own field. Nothing found: undefined,
 * never a guess, so callers fall back to what they were configured with.
 */

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

/**
 * From one `/models` entry. The window the server runs the model with comes before the model's
 * maximum: LM Studio `loaded_context_length` (then `max_context_length`), vLLM `max_model_len`,
 * OpenRouter `context_length`, llama.cpp server `meta.n_ctx_train` (the trained length; its
 * `/props` has the window in effect, see `llamaServerContextLength`).
 */
export function modelEntryContextLength(entry: unknown): number | undefined {
  if (!isRecord(entry)) return undefined;
  const meta = isRecord(entry['meta']) ? entry['meta'] : {};
  return (
    positiveInteger(entry['loaded_context_length']) ??
    positiveInteger(entry['max_model_len']) ??
    positiveInteger(entry['context_length']) ??
    positiveInteger(entry['max_context_length']) ??
    positiveInteger(meta['n_ctx_train'])
  );
}

/** True for a llama.cpp server entry (its `meta` block), whose `/props` is worth asking. */
export function isLlamaServerEntry(entry: unknown): boolean {
  return isRecord(entry) && isRecord(entry['meta']) && 'n_ctx_train' in entry['meta'];
}

/** llama.cpp server's `GET /props`: `default_generation_settings.n_ctx`, the window in effect. */
export function llamaServerContextLength(props: unknown): number | undefined {
  const settings = isRecord(props) ? props['default_generation_settings'] : undefined;
  return isRecord(settings) ? positiveInteger(settings['n_ctx']) : undefined;
}
