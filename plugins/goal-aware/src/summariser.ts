import { cutAtSentence, splitIntoChunks, tokenPrefix, type GoalState, type LanguageModel, type Message, type TokenCounting } from '@ollm/core';
import type { RenderedEntry } from './render-span.js';
import { recompressPrompt, spanPrompt } from './summary-prompts.js';

export interface SummariserSettings {
  readonly model: LanguageModel;
  readonly tokens: TokenCounting;
  readonly goal: GoalState | undefined;
  /** The summariser model's window in tokens. */
  readonly modelContextTokens: number;
  readonly temperature: number;
  readonly abortSignal?: AbortSignal;
}

/** Tokens a server's chat template adds beyond the messages: kept free in every request. */
const TEMPLATE_MARGIN = 64;
/** A summary never asks for more than this share of the summariser's window as its reply. */
const MAXIMUM_OUTPUT_SHARE = 0.25;

/**
 * Calls the model for goal-aware summaries and keeps what they cost. Every call asks for its
 * output target (`maxOutputTokens`) and cuts an overrunning reply at a sentence boundary. Every
 * request obeys the window rule against the summariser model's own window: prompt + output
 * target + a template margin fit it. A span too large for it is split into chunks summarised
 * separately, then merged; summaries to age or merge are cut to fit.
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
  async summariseSpan(entries: readonly RenderedEntry[], requestedTokens: number): Promise<string> {
    const targetTokens = this.outputTarget(requestedTokens);
    const overhead = this.settings.tokens.countMessages(spanPrompt(this.settings.goal, '', targetTokens));
    const budget = this.inputBudget(targetTokens, overhead);
    const chunks = splitIntoChunks(
      entries.map((entry) => entry.text),
      budget,
      this.settings.tokens,
      "[… cut to fit the summariser's window]",
    );
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
  recompress(summaries: readonly string[], requestedTokens: number, purpose: 'age' | 'merge' | 'ultra'): Promise<string> {
    const targetTokens = this.outputTarget(requestedTokens);
    const { tokens, goal } = this.settings;
    const overhead = tokens.countMessages(
      recompressPrompt(
        goal,
        summaries.map(() => ''),
        targetTokens,
        purpose,
      ),
    );
    const budget = this.inputBudget(targetTokens, overhead);
    const total = summaries.reduce((sum, summary) => sum + tokens.countText(summary) + 1, 0);
    // Summaries that do not fit the window together are each cut to their share of it.
    const fitted = total <= budget ? summaries : summaries.map((summary) => tokenPrefix(summary, Math.floor(budget / summaries.length) - 1, tokens.tokenizer));
    return this.call(recompressPrompt(goal, fitted, targetTokens, purpose), targetTokens);
  }

  /** The output target, within its share of the summariser's window. */
  private outputTarget(requestedTokens: number): number {
    return Math.max(16, Math.min(requestedTokens, Math.floor(this.settings.modelContextTokens * MAXIMUM_OUTPUT_SHARE)));
  }

  /** What the conversation text of one request may hold: the window less the prompt, the output target and the template margin. */
  private inputBudget(targetTokens: number, promptOverhead: number): number {
    return Math.max(32, this.settings.modelContextTokens - targetTokens - promptOverhead - TEMPLATE_MARGIN);
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
