/**
 * What kind of loss a compaction had, or why it stopped short: typed, so a host can act on it
 * (suggest a model-based provider, report user messages folded) instead of parsing prose.
 */
export type CompactionWarning =
  /** The output is still over the limit; the rest is what the provider may not touch. */
  | { readonly type: 'limit-not-reached'; readonly tokens: number; readonly limit: number }
  /** Nothing the provider could remove (too little, too recent, already compact). */
  | { readonly type: 'nothing-to-do'; readonly reason: string }
  /** User messages folded away under an explicit policy (they are listed in `folded`). */
  | { readonly type: 'user-messages-folded'; readonly count: number; readonly reason: string }
  /** A model's output was discarded (empty, not smaller); the input was kept. */
  | { readonly type: 'model-output-discarded'; readonly reason: string }
  /** Removed content could not be saved for recovery (no logdir): only its sha256 is recorded. */
  | { readonly type: 'not-recoverable'; readonly reason: string }
  /** Anything else worth telling the user. */
  | { readonly type: 'note'; readonly message: string };

/** The one-line text of a warning, as `limitations` carries it. */
export function describeWarning(warning: CompactionWarning): string {
  switch (warning.type) {
    case 'limit-not-reached':
      return `still ${warning.tokens} tokens, over the limit of ${warning.limit}`;
    case 'nothing-to-do':
    case 'model-output-discarded':
    case 'not-recoverable':
      return warning.reason;
    case 'user-messages-folded':
      return `${warning.count} user message(s) folded: ${warning.reason}`;
    case 'note':
      return warning.message;
  }
}
