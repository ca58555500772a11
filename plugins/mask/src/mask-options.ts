import { InvalidArgumentError, type CompressionConfig } from '@ollm/core';

/**
 * `all` masks every eligible tool output older than the last `keepLast` (the JetBrains policy);
 * `until-limit` masks oldest first and stops as soon as the conversation fits `config.limit`.
 */
export type MaskMode = 'all' | 'until-limit';

export interface MaskOptions {
  /** Tool results kept verbatim at the end of the conversation. Default 10 (JetBrains' M). */
  readonly keepLast?: number;
  /** Tool names whose results are never masked, however old. */
  readonly neverMask?: readonly string[];
  /** Default: `until-limit` when `config.limit` is set (so the least is lost), else `all`. */
  readonly mode?: MaskMode;
  /**
   * An output is masked only when the placeholder saves at least this many tokens: masking a
   * 60-token output to save 5 would lose the output for nothing. Default 16.
   */
  readonly minimumTokensSaved?: number;
}

export interface ResolvedMaskOptions {
  readonly keepLast: number;
  readonly neverMask: ReadonlySet<string>;
  readonly mode: MaskMode;
  readonly minimumTokensSaved: number;
}

export const DEFAULT_KEEP_LAST = 10;
export const DEFAULT_MINIMUM_TOKENS_SAVED = 16;
const MODES: readonly MaskMode[] = ['all', 'until-limit'];

/**
 * Merges factory options with `config.extraConfig` (keys `keepLast`, `neverMask`, `mode`,
 * `minimumTokensSaved`). The per-call config wins: it is what the user set for this run; the
 * `neverMask` lists of both are joined, since either one naming a tool is a reason to keep it.
 */
export function resolveMaskOptions(options: MaskOptions, config: CompressionConfig): ResolvedMaskOptions {
  const extra = config.extraConfig ?? {};
  const keepLast = readCount('keepLast', extra['keepLast'] ?? options.keepLast ?? DEFAULT_KEEP_LAST);
  const minimumTokensSaved = readCount('minimumTokensSaved', extra['minimumTokensSaved'] ?? options.minimumTokensSaved ?? DEFAULT_MINIMUM_TOKENS_SAVED);
  const neverMask = new Set([...readNames(options.neverMask ?? []), ...readNames(extra['neverMask'] ?? [])]);
  const mode = extra['mode'] ?? options.mode ?? (config.limit === undefined ? 'all' : 'until-limit');
  if (!MODES.includes(mode as MaskMode)) {
    throw new InvalidArgumentError({ argument: 'mode', message: `mask: mode must be "all" or "until-limit", got ${JSON.stringify(mode)}` });
  }
  return { keepLast, neverMask, mode: mode as MaskMode, minimumTokensSaved };
}

function readCount(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new InvalidArgumentError({ argument: name, message: `mask: ${name} must be a whole number >= 0, got ${JSON.stringify(value)}` });
  }
  return value;
}

function readNames(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) {
    throw new InvalidArgumentError({ argument: 'neverMask', message: `mask: neverMask must be a list of tool names, got ${JSON.stringify(value)}` });
  }
  return value;
}
