import { InvalidArgumentError } from '@ollm/core';

/** Options of the fold provider (factory options, or `providerOptions.fold`). */
export interface FoldOptions {
  /** The newest turns kept whole while older ones can still be folded. Default 3. */
  readonly keepRecentTurns?: number;
  /** Tool outputs over this many tokens are folded to a digest at level 2. Default 60. */
  readonly minOutputTokens?: number;
  /** String arguments of a tool call over this many tokens are folded at level 2. Default 120. */
  readonly minCallTokens?: number;
  /** Names a tool-output digest lists at most. Default 24. */
  readonly maxDigestNames?: number;
  /** Names a folded call argument lists at most. Default 12. */
  readonly maxCallNames?: number;
  /** Names a one-line turn lists at most. Default 6. */
  readonly maxLineNames?: number;
  /** Characters kept of a first line. Default 120. */
  readonly lineCharacters?: number;
}

export type ResolvedFoldOptions = Required<FoldOptions>;

export const DEFAULT_FOLD_OPTIONS: ResolvedFoldOptions = {
  keepRecentTurns: 3,
  minOutputTokens: 60,
  minCallTokens: 120,
  maxDigestNames: 24,
  maxCallNames: 12,
  maxLineNames: 6,
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
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
        throw new InvalidArgumentError({ argument: `fold.${key}`, message: `fold option ${key} must be a non-negative integer, got ${JSON.stringify(value)}` });
      }
      resolved[key] = value;
    }
  }
  return resolved as ResolvedFoldOptions;
}
