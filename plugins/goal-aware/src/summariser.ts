import { cutAtSentence, splitIntoChunks, type GoalState, type LanguageModel, type Message, type TokenCounter } from '@ollm/core';
import type { RenderedEntry } from './render-span.js';
import { recompressPrompt, spanPrompt } from './summary-prompts.js';

export interface SummariserSettings {
  readonly model: LanguageModel;
  readonly tokens: TokenCounter;
  readonly goal: GoalState | undefined;
  /** The summariser model's window in tokens. */
  readonly modelContextTokens: number;
  readonly temperature: number;
  readonly abortSignal?: AbortSignal;
}

/**
 * Calls the model for goal-aware summaries and keeps what they cost. Every call asks for its
 * output target (`maxOutputTokens`) and cuts an overrunning reply at a sentence boundary; a span
 * too large for the model's window is split into chunks summarised separately, then merged.
 */
export class Summariser {
  modelInputTokens = 0;
  modelOutputTokens = 0;
  modelCalls = 0;
  /** Chunks the last span was split into (1 when it fit). */
  lastChunkCount = 1;
  private readonly settings: SummariserSettings;

  constructor(settings: SummariserSettings) {
    this.settings = settings;
  }

  /** Summarises a rendered span to at most `targetTokens`. */
  async summariseSpan(entries: readonly RenderedEntry[], targetTokens: number): Promise<string> {
    const overhead = this.settings.tokens.countMessages(spanPrompt(this.settings.goal, '', targetTokens));
    // Output and a small margin for the server's own template tokens come out of the window too.
    const budget = Math.max(256, this.settings.modelContextTokens - targetTokens - overhead - 64);
    const chunks = splitIntoChunks(entries.map((entry) => entry.text), budget, this.settings.tokens, "[… cut to fit the summariser's window]");
    this.lastChunkCount = chunks.length;
    if (chunks.length === 1) return this.call(spanPrompt(this.settings.goal, chunks[0]!, targetTokens), targetTokens);
    const chunkTarget = Math.max(48, Math.floor(targetTokens / chunks.length));
    const partials: string[] = [];
    for (const chunk of chunks) {
      const partial = await this.call(spanPrompt(this.settings.goal, chunk, chunkTarget), chunkTarget);
      if (partial !== '') partials.push(partial);
    }
    if (partials.length <= 1) return partials[0] ?? '';
    return this.recompress(partials, targetTokens, 'merge');
  }

  /** Re-compresses (aging) or merges summaries to at most `targetTokens`. */
  recompress(summaries: readonly string[], targetTokens: number, purpose: 'age' | 'merge' | 'ultra'): Promise<string> {
    return this.call(recompressPrompt(this.settings.goal, summaries, targetTokens, purpose), targetTokens);
  }

  private async call(messages: Message[], targetTokens: number): Promise<string> {
    const { model, tokens } = this.settings;
    this.settings.abortSignal?.throwIfAborted();
    const result = await model.complete({
      messages,
      maxOutputTokens: targetTokens,
      temperature: this.settings.temperature,
      ...(this.settings.abortSignal ? { abortSignal: this.settings.abortSignal } : {}),
    });
    this.modelCalls += 1;
    this.modelInputTokens += result.usage.inputTokens ?? tokens.countMessages(messages);
    this.modelOutputTokens += result.usage.outputTokens ?? tokens.countText(result.text);
    return cutAtSentence(result.text.trim(), targetTokens, tokens.tokenizer);
  }
}
