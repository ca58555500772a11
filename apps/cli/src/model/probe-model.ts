import { createModelClient } from './create-language-model.js';
import type { ModelSettings } from './model-settings.js';

/** What the server said about the model when it answered. */
export interface ModelProbe {
  /** The window the model runs with, when the server says (Ollama's `/api/show`; llama.cpp's `/props`, `/v1/models` metadata). */
  readonly contextLength?: number;
  /** Ollama's `parameter_size` (`8.0B`). */
  readonly parameterSize?: string;
}

/** How long the reachability check may take: a server that is up answers at once. */
const PROBE_TIMEOUT_MS = 15_000;

/**
 * Checks that the server answers (Ollama: `/api/show`, which also gives the context length;
 * OpenAI-compatible: `/models`, then the window the server reports, if any). No retries: a refused connection is reported at once, not after
 * backoff, as the client's `ModelUnavailableError` naming the address tried and what to start or set.
 */
export async function probeModel(settings: ModelSettings, signal: AbortSignal | undefined): Promise<ModelProbe> {
  const client = createModelClient(settings, { maxRetries: 0, timeoutMs: PROBE_TIMEOUT_MS });
  const call = signal ? { abortSignal: signal } : {};
  if (client.api === 'openai') {
    await client.model.listModels(call);
    // The window the server runs, where it says: llama.cpp's /props (n_ctx), /v1/models metadata
    // (vLLM max_model_len, LM Studio, llama.cpp meta.n_ctx_train). A server that says nothing leaves --context-size or the fallback.
    let described: { contextLength?: number } = {};
    try {
      described = await client.model.describe(call);
    } catch {
      // Reachable (it listed its models) but with nothing to read: no window learnt.
    }
    return described.contextLength !== undefined && described.contextLength > 0 ? { contextLength: described.contextLength } : {};
  }
  const described = await client.model.describe(call);
  return {
    ...(described.contextLength !== undefined ? { contextLength: described.contextLength } : {}),
    ...(described.parameterSize ? { parameterSize: described.parameterSize } : {}),
  };
}
