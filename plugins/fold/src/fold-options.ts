import { InvalidArgumentError } from '@ollm/core';

/** Options of the fold provider (factory options, or `providerOptions.fold`). */
export interface FoldOptions {
  /** Percent of the room the fixed messages leave that the newest turns may take verbatim. Default 50. */
  readonly recentShare?: number;
  /** Percent of that room the turns just older than those may take as reduced skeletons (calls, references), before their lines. Default 15. */
  readonly middleShare?: number;
  /** Percent of that room a list of names nothing kept shows may take, at most. Default 5. */
  readonly namesShare?: number;
  /** Characters kept of a command in a digest's step header. Default 120. */
  readonly lineCharacters?: number;
}

export type ResolvedFoldOptions = Required<FoldOptions>;

export const DEFAULT_FOLD_OPTIONS: ResolvedFoldOptions = {
  recentShare: 35,
  middleShare: 5,
  namesShare: 5,
  lineCharacters: 120,
};

/**
 * Factory options, overridden by the call's `providerOptions`; every value a non-negative integer.
 * An unknown factory option is an error; unknown keys of the call's options are other stages' settings.
 */
export function resolveFoldOptions(options: FoldOptions, overrides: Readonly<Record<string, unknown>> = {}): ResolvedFoldOptions {
  const resolved: Record<string, number> = { ...DEFAULT_FOLD_OPTIONS };
  for (const source of [options as Record<string, unknown>, overrides]) {
    for (const [key, value] of Object.entries(source)) {
      if (value === undefined) continue;
      // The call's options may carry the host's shared settings for every stage: only fold's own keys are read there.
      if (source === overrides && !Object.hasOwn(DEFAULT_FOLD_OPTIONS, key)) continue;
      if (!Object.hasOwn(DEFAULT_FOLD_OPTIONS, key)) {
        throw new InvalidArgumentError({
          argument: `fold.${key}`,
          message: `fold has no option "${key}" (it has ${Object.keys(DEFAULT_FOLD_OPTIONS).join(', ')})`,
        });
      }
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || (key.endsWith('Share') && value > 100)) {
        throw new InvalidArgumentError({
          argument: `fold.${key}`,
          message: `fold option ${key} must be a non-negative integer${key.endsWith('Share') ? ' (a percentage, at most 100)' : ''}, got ${JSON.stringify(value)}`,
        });
      }
      resolved[key] = value;
    }
  }
  return resolved as ResolvedFoldOptions;
}
