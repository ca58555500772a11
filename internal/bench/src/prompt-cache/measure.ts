import { TokenCounter, createTokenizer } from '@ollm/core';
import { median } from '../measure.js';
import { taskMarker } from './agent-task.js';
import { LOOP_STRATEGIES, type LoopStrategy } from './loop-strategies.js';
import { promptSteps, renderPrompt } from './prefix-share.js';

export const DEFAULT_PROMPT_CACHE_STEPS = 40;
export const DEFAULT_PROMPT_CACHE_WINDOWS: readonly number[] = [16_384, 32_768];

export interface PromptCacheRow {
  readonly strategy: string;
  readonly description: string;
  readonly window: number;
  readonly steps: number;
  readonly requests: number;
  readonly summaryRequests: number;
  readonly summaryTokensWritten: number;
  readonly rewrites: number;
  /** Requests whose prompt is over the window (o200k of the rendered prompt). */
  readonly overWindow: number;
  readonly largestPrompt: number;
  /** Median and mean, over consecutive requests, of the later prompt's share that is the earlier one's start. */
  readonly sharedMedian: number;
  readonly sharedMean: number;
  /** Tokens the server processes that its prompt cache does not hold: every prompt less its shared start. */
  readonly processedAgain: number;
  readonly processedAgainPerRequest: number;
  /** The first user message's marker is in the last prompt. */
  readonly markerKept: boolean;
}

export interface PromptCacheReport {
  readonly steps: number;
  readonly windows: readonly number[];
  readonly rows: readonly PromptCacheRow[];
  readonly seconds: number;
}

export interface PromptCacheOptions {
  readonly steps?: number;
  readonly windows?: readonly number[];
  readonly strategies?: readonly LoopStrategy[];
  readonly seed?: number;
  readonly onRow?: (row: PromptCacheRow) => void;
}

/**
 * A coding agent's loop of `steps` steps (each `cat`s a ~2,400-token file), run once per window by
 * each strategy: how much of each prompt a local server's prompt cache can reuse from the one
 * before, and how many tokens it must process again.
 */
export async function measurePromptCache(options: PromptCacheOptions = {}): Promise<PromptCacheReport> {
  const started = performance.now();
  const steps = options.steps ?? DEFAULT_PROMPT_CACHE_STEPS;
  const windows = options.windows ?? DEFAULT_PROMPT_CACHE_WINDOWS;
  const seed = options.seed ?? 1;
  const tokens = new TokenCounter(createTokenizer('o200k_base'));
  const rows: PromptCacheRow[] = [];
  for (const window of windows) {
    for (const strategy of options.strategies ?? LOOP_STRATEGIES) {
      const run = await strategy.run({ seed, steps, window, tokens });
      const texts = run.prompts.map(renderPrompt);
      const measured = promptSteps(texts, tokens);
      const shares = measured.slice(1).map((step) => step.sharedTokens / step.tokens);
      const processedAgain = measured.reduce((sum, step) => sum + step.tokens - step.sharedTokens, 0);
      const row: PromptCacheRow = {
        strategy: strategy.name,
        description: strategy.description,
        window,
        steps,
        requests: run.prompts.length,
        summaryRequests: run.summaryRequests,
        summaryTokensWritten: run.summaryTokensWritten,
        rewrites: run.rewrites,
        overWindow: measured.filter((step) => step.tokens > window).length,
        largestPrompt: Math.max(0, ...measured.map((step) => step.tokens)),
        sharedMedian: shares.length === 0 ? 0 : median(shares),
        sharedMean: shares.length === 0 ? 0 : shares.reduce((sum, share) => sum + share, 0) / shares.length,
        processedAgain,
        processedAgainPerRequest: measured.length === 0 ? 0 : processedAgain / measured.length,
        markerKept: texts.length > 0 && texts[texts.length - 1]!.includes(taskMarker(seed)),
      };
      rows.push(row);
      options.onRow?.(row);
    }
  }
  return { steps, windows, rows, seconds: (performance.now() - started) / 1000 };
}
