/** `--limit`: an absolute token count, or a share of each conversation's own tokens. */
export type TokenLimit = { readonly kind: 'tokens'; readonly tokens: number } | { readonly kind: 'percent'; readonly percent: number };

export const DEFAULT_LIMIT: TokenLimit = { kind: 'percent', percent: 50 };

/** Parses `8000` or `50%`; returns undefined for anything else (the caller reports it). */
export function parseLimit(text: string): TokenLimit | undefined {
  const percent = /^(\d+(?:\.\d+)?)%$/.exec(text.trim());
  if (percent) {
    const value = Number(percent[1]);
    return value > 0 && value <= 100 ? { kind: 'percent', percent: value } : undefined;
  }
  if (!/^\d+$/.test(text.trim())) return undefined;
  const tokens = Number(text.trim());
  return Number.isSafeInteger(tokens) && tokens > 0 ? { kind: 'tokens', tokens } : undefined;
}

/** The target in tokens for a conversation of `tokensBefore` tokens. */
export function resolveLimit(limit: TokenLimit, tokensBefore: number): number {
  return limit.kind === 'tokens' ? limit.tokens : Math.floor((tokensBefore * limit.percent) / 100);
}

export function describeLimit(limit: TokenLimit): string {
  return limit.kind === 'tokens' ? `${limit.tokens}` : `${limit.percent}%`;
}
