import type { Message } from '../messages/message.js';

export interface LanguageModelCallOptions {
  readonly messages: readonly Message[];
  /** Upper bound on output tokens. */
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly abortSignal?: AbortSignal;
  /** Called with each text delta when the call streams. */
  readonly onTextDelta?: (delta: string) => void;
}

export interface LanguageModelUsage {
  readonly inputTokens?: number;
  readonly outputTokens?: number;
}

export interface LanguageModelResult {
  readonly text: string;
  readonly usage: LanguageModelUsage;
  readonly finishReason?: string;
}

/** The small interface model backends (`@ollm/model-*`) implement. Core depends on no vendor SDK. */
export interface LanguageModel {
  readonly specificationVersion: 'v1';
  /** e.g. `ollama`, `openai`. */
  readonly provider: string;
  readonly modelId: string;
  complete(options: LanguageModelCallOptions): Promise<LanguageModelResult>;
  /** The model's context window and size, where the server reports them. */
  describe?(options?: { abortSignal?: AbortSignal }): Promise<{ contextLength?: number; parameterSize?: string }>;
}
