import type { FakeModel } from '../chat-exchange.js';

/**
 * Where an OpenAI-compatible server puts a model's context length in its `/v1/models` entries.
 * OpenAI itself reports none; each compatible server has its own field, and clients must read
 * them all, so the fake can speak any of them.
 */
export type OpenAIContextShape = 'vllm' | 'lm-studio' | 'llama-cpp' | 'openrouter';

export const OPENAI_CONTEXT_SHAPES: readonly OpenAIContextShape[] = ['vllm', 'lm-studio', 'llama-cpp', 'openrouter'];

/** The window the server runs the model with: `loadedContextLength`, else the model's own length. */
function servedLength(model: FakeModel): number | undefined {
  return model.loadedContextLength ?? model.contextLength;
}

/** The extra fields a `/v1/models` entry carries in `shape` (none when the model has no length). */
export function openAIContextFields(model: FakeModel, shape: OpenAIContextShape | undefined): Record<string, unknown> {
  if (shape === undefined || model.contextLength === undefined) return {};
  switch (shape) {
    case 'vllm':
      return { max_model_len: servedLength(model) };
    case 'lm-studio':
      // LM Studio reports the loaded window only for a model that is loaded.
      return {
        max_context_length: model.contextLength,
        ...(model.loadedContextLength !== undefined ? { loaded_context_length: model.loadedContextLength } : {}),
      };
    case 'llama-cpp':
      return { meta: { vocab_type: 2, n_vocab: 151_936, n_ctx_train: model.contextLength, n_embd: 4096, n_params: 8_030_261_248 } };
    case 'openrouter':
      return { context_length: model.contextLength };
  }
}

/** llama.cpp server's `GET /props`: `default_generation_settings.n_ctx` is the window in effect. */
export function llamaServerProps(model: FakeModel): unknown {
  return {
    default_generation_settings: { n_ctx: servedLength(model), params: { temperature: 0.8 } },
    total_slots: 1,
    model_path: `/models/${model.name}.gguf`,
  };
}
