/** The wire protocols `--api` chooses between. */
export const MODEL_APIS = ['ollama', 'openai'] as const;
export type ModelApi = (typeof MODEL_APIS)[number];

/**
 * Everything a model client needs, already resolved (flags > environment > config defaults).
 * Unset values fall back to the client package's own defaults.
 */
export interface ModelSettings {
  readonly api: ModelApi;
  readonly model: string;
  /** The Ollama host (`api: 'ollama'`). */
  readonly host?: string;
  /** The OpenAI-compatible base URL (`api: 'openai'`). */
  readonly baseURL?: string;
  /** The OpenAI API key; never printed or stored. */
  readonly apiKey?: string;
  /** Ollama's `num_ctx`: the window the model runs with. */
  readonly numCtx?: number;
  /** How long one call may take, retries included (`--timeout`, config `timeout`); unset: the client's 300 s. */
  readonly timeoutMs?: number;
}
