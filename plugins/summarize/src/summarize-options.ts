import { InvalidArgumentError, type CompressionConfig } from '@ollm/core';

export interface SummarizeOptions {
  /**
   * Most tokens the RESUME may take. Default: it follows the limit (what the kept messages leave
   * of `config.limit`, three quarters of it; the rest is for context files), and 1500 without a limit.
   */
  readonly resumeMaxTokens?: number;
  /** Each context file is cut to this many tokens. Default 2000. */
  readonly fileMaxTokens?: number;
  /** Folder context files are read from (paths outside it are refused). Default `process.cwd()`. */
  readonly workspace?: string;
  /** The model's window; default: the model's `describe()`, else 8192. */
  readonly modelContextTokens?: number;
  readonly temperature?: number;
}

export interface ResolvedSummarizeOptions {
  /** Set only when the caller set it: otherwise the RESUME's size follows the limit. */
  readonly resumeMaxTokens?: number;
  readonly fileMaxTokens: number;
  readonly workspace: string;
  readonly modelContextTokens?: number;
  readonly temperature: number;
}

export const DEFAULT_RESUME_MAX_TOKENS = 1500;
export const DEFAULT_FILE_MAX_TOKENS = 2000;

/** Merges factory options with `config.extraConfig` (same keys; the per-call config wins). */
export function resolveSummarizeOptions(options: SummarizeOptions, config: CompressionConfig): ResolvedSummarizeOptions {
  const extra = config.extraConfig ?? {};
  const workspace = extra['workspace'] ?? options.workspace ?? process.cwd();
  if (typeof workspace !== 'string' || workspace === '') {
    throw new InvalidArgumentError({ argument: 'workspace', message: `summarize: workspace must be a folder path, got ${JSON.stringify(workspace)}` });
  }
  const window = extra['modelContextTokens'] ?? options.modelContextTokens;
  const resume = extra['resumeMaxTokens'] ?? options.resumeMaxTokens;
  return {
    ...(resume !== undefined ? { resumeMaxTokens: readNumber('resumeMaxTokens', resume, 64) } : {}),
    fileMaxTokens: readNumber('fileMaxTokens', extra['fileMaxTokens'] ?? options.fileMaxTokens ?? DEFAULT_FILE_MAX_TOKENS, 1),
    workspace,
    temperature: readNumber('temperature', extra['temperature'] ?? options.temperature ?? 0, 0, 2),
    ...(window !== undefined ? { modelContextTokens: readNumber('modelContextTokens', window, 512) } : {}),
  };
}

function readNumber(name: string, value: unknown, minimum: number, maximum = Number.POSITIVE_INFINITY): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < minimum || value > maximum) {
    throw new InvalidArgumentError({
      argument: name,
      message: `summarize: ${name} must be a number >= ${minimum}${maximum < Infinity ? ` and <= ${maximum}` : ''}, got ${JSON.stringify(value)}`,
    });
  }
  return Math.floor(value * 1000) / 1000;
}
