/** One chat request as the protocol handlers need it. */
export interface ChatExchange {
  readonly model: string;
  readonly stream: boolean;
  /** OpenAI `stream_options.include_usage`. */
  readonly includeUsage: boolean;
  readonly maxTokens?: number;
}

/** A tool call the fake model makes (`toolCalls` option). */
export interface FakeToolCall {
  readonly name: string;
  /** The arguments, as a JSON value (sent as a JSON string to OpenAI clients, as an object to Ollama's). */
  readonly arguments: unknown;
}

/** The reply the server decided on, with its token counts. */
export interface ChatOutcome {
  readonly text: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly finishReason: 'stop' | 'length' | 'tool_calls';
  /** Tool calls the reply makes, with the ids OpenAI clients get (`call_fake_<n>`). */
  readonly toolCalls?: readonly (FakeToolCall & { readonly id: string })[];
}

/** A response body ready to write: one chunk, or many for a stream. */
export interface RenderedBody {
  readonly contentType: string;
  readonly chunks: readonly string[];
}

/** Splits a reply into the deltas a stream sends (words with their trailing space); they join to the text. */
export function splitIntoDeltas(text: string): string[] {
  if (text === '') return [];
  return text.split(/(?<=\s)(?=\S)/);
}

/** A model the fake server claims to have. */
export interface FakeModel {
  readonly name: string;
  readonly family?: string;
  /** e.g. `8.0B`. */
  readonly parameterSize?: string;
  /** The model's own (trained / maximum) context length. */
  readonly contextLength?: number;
  /**
   * The window the server runs it with, when smaller (LM Studio's `loaded_context_length`,
   * llama.cpp's `/props` `n_ctx`, vLLM's `max_model_len`); default `contextLength`.
   */
  readonly loadedContextLength?: number;
  readonly quantization?: string;
}

export const DEFAULT_FAKE_MODELS: readonly FakeModel[] = [
  { name: 'fake-llama:8b', family: 'llama', parameterSize: '8.0B', contextLength: 8192, quantization: 'Q4_K_M' },
  { name: 'fake-qwen:32b', family: 'qwen2', parameterSize: '32.8B', contextLength: 32768, quantization: 'Q4_K_M' },
];
