import type { CompressionConfig } from '@ollm/core';

/** Options of `createTrimProvider`; every field may also come from `config.extraConfig`. */
export interface TrimOptions {
  /** Overrides `config.maxToolResultTokens` (gptme default 2000). */
  readonly maxToolResultTokens?: number;
  /** Overrides `config.reasoningStripAgeThreshold` (gptme default 5). */
  readonly reasoningStripAgeThreshold?: number;
  /** Lines of the head and of the tail of a truncated tool output kept in its placeholder. Default 3. */
  readonly previewLines?: number;
  /** A preview line longer than this (characters) is cut. Default 160. */
  readonly previewLineCharacters?: number;
  /** Assistant text shorter than this (tokens) is never compressed extractively. Default 200. */
  readonly extractiveMinTokens?: number;
  /** Share of an assistant message's prose that extractive compression aims to keep. Default 0.4. */
  readonly extractiveKeepRatio?: number;
  /**
   * When still over the limit after the three phases, tool-result truncation is repeated with
   * the threshold halved each pass, down to this floor (tokens). Default 100; set `additionalPasses: false` to stop after phase 3.
   */
  readonly minToolResultTokens?: number;
  /**
   * Tool-call inputs over this (tokens) in messages older than `reasoningStripAgeThreshold` are
   * folded while over the limit (never without a limit). Default 400.
   */
  readonly maxToolCallTokens?: number;
  /** Floor of the tool-call threshold, halved in each additional pass. Default 100. */
  readonly minToolCallTokens?: number;
  readonly additionalPasses?: boolean;
}

/** Every option resolved, with the two thresholds taken from the config when not overridden. */
export interface ResolvedTrimOptions {
  readonly maxToolResultTokens: number;
  readonly reasoningStripAgeThreshold: number;
  readonly previewLines: number;
  readonly previewLineCharacters: number;
  readonly extractiveMinTokens: number;
  readonly extractiveKeepRatio: number;
  readonly minToolResultTokens: number;
  readonly maxToolCallTokens: number;
  readonly minToolCallTokens: number;
  readonly additionalPasses: boolean;
}

export const TRIM_DEFAULTS = {
  previewLines: 3,
  previewLineCharacters: 160,
  extractiveMinTokens: 200,
  extractiveKeepRatio: 0.4,
  minToolResultTokens: 100,
  maxToolCallTokens: 400,
  minToolCallTokens: 100,
  additionalPasses: true,
} as const;

type NumberKey = Exclude<keyof TrimOptions, 'additionalPasses'>;
const NUMBER_KEYS: readonly NumberKey[] = [
  'maxToolResultTokens',
  'reasoningStripAgeThreshold',
  'previewLines',
  'previewLineCharacters',
  'extractiveMinTokens',
  'extractiveKeepRatio',
  'minToolResultTokens',
  'maxToolCallTokens',
  'minToolCallTokens',
];

/** Reads trim's keys from `extraConfig.trim` (preferred, safe in pipelines) or flat `extraConfig`. */
function extraOptions(config: CompressionConfig): TrimOptions {
  const extra = config.extraConfig ?? {};
  const namespaced = extra['trim'];
  const source = namespaced && typeof namespaced === 'object' ? { ...extra, ...(namespaced as Record<string, unknown>) } : extra;
  const options: Record<string, number | boolean> = {};
  for (const key of NUMBER_KEYS) {
    const value = source[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) options[key] = value;
  }
  if (typeof source['additionalPasses'] === 'boolean') options['additionalPasses'] = source['additionalPasses'];
  return options as TrimOptions;
}

/**
 * Precedence, lowest first: core config thresholds and trim defaults, factory options, then
 * `config.extraConfig` (per call). A factory override beats the config because the config always
 * carries a value (its default), so the factory's explicit choice would otherwise be lost.
 */
export function resolveTrimOptions(options: TrimOptions, config: CompressionConfig): ResolvedTrimOptions {
  const extra = extraOptions(config);
  return {
    ...TRIM_DEFAULTS,
    maxToolResultTokens: config.maxToolResultTokens,
    reasoningStripAgeThreshold: config.reasoningStripAgeThreshold,
    ...definedOnly(options),
    ...extra,
  };
}

function definedOnly(options: TrimOptions): TrimOptions {
  return Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined)) as TrimOptions;
}
