import { InvalidArgumentError, type CompressionConfig } from '@ollm/core';

export interface GoalAwareOptions {
  /** Tokens at the end of the conversation that are never summarised. Default 2048. */
  readonly preserveRecent?: number;
  /** Size of a new (level 3) checkpoint. Default 1200; aged levels are 1/2, 1/4 and 1/8 of it. */
  readonly summaryMaxTokens?: number;
  /** Share of `config.limit` user messages may take before the oldest are folded. Default 0.5. */
  readonly userShare?: number;
  /** The summariser model's window; default: the model's `describe()`, else 8192. */
  readonly modelContextTokens?: number;
  /** Sampling temperature for summaries. Default 0 (summaries should be repeatable). */
  readonly temperature?: number;
}

export interface ResolvedGoalAwareOptions {
  readonly preserveRecent: number;
  readonly summaryMaxTokens: number;
  /** Target tokens of a checkpoint body per level: index 0 = ultra ... 3 = new. */
  readonly levelTargets: readonly [number, number, number, number];
  readonly userShare: number;
  readonly modelContextTokens?: number;
  readonly temperature: number;
}

export const DEFAULT_PRESERVE_RECENT = 2048;
export const DEFAULT_SUMMARY_MAX_TOKENS = 1200;
export const DEFAULT_USER_SHARE = 0.5;

/**
 * Merges factory options with `config.extraConfig` (same keys; the per-call config wins, since it
 * is what the user set for this run).
 */
export function resolveGoalAwareOptions(options: GoalAwareOptions, config: CompressionConfig): ResolvedGoalAwareOptions {
  const extra = config.extraConfig ?? {};
  const preserveRecent = readNumber('preserveRecent', extra['preserveRecent'] ?? options.preserveRecent ?? DEFAULT_PRESERVE_RECENT, 0);
  const summaryMaxTokens = readNumber('summaryMaxTokens', extra['summaryMaxTokens'] ?? options.summaryMaxTokens ?? DEFAULT_SUMMARY_MAX_TOKENS, 64);
  const userShare = readNumber('userShare', extra['userShare'] ?? options.userShare ?? DEFAULT_USER_SHARE, 0, 1);
  const temperature = readNumber('temperature', extra['temperature'] ?? options.temperature ?? 0, 0, 2);
  const window = extra['modelContextTokens'] ?? options.modelContextTokens;
  const modelContextTokens = window === undefined ? undefined : readNumber('modelContextTokens', window, 512);
  // 1200 -> 600 -> 300 -> 150: each aging step halves.
  const levelTargets: [number, number, number, number] = [
    Math.round(summaryMaxTokens / 8),
    Math.round(summaryMaxTokens / 4),
    Math.round(summaryMaxTokens / 2),
    summaryMaxTokens,
  ];
  return {
    preserveRecent: Math.floor(preserveRecent),
    summaryMaxTokens: Math.floor(summaryMaxTokens),
    levelTargets,
    userShare,
    temperature,
    ...(modelContextTokens !== undefined ? { modelContextTokens: Math.floor(modelContextTokens) } : {}),
  };
}

function readNumber(name: string, value: unknown, minimum: number, maximum = Number.POSITIVE_INFINITY): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < minimum || value > maximum) {
    const range = maximum === Number.POSITIVE_INFINITY ? `>= ${minimum}` : `between ${minimum} and ${maximum}`;
    throw new InvalidArgumentError({ argument: name, message: `goal-aware: ${name} must be a number ${range}, got ${JSON.stringify(value)}` });
  }
  return value;
}
