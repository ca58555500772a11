import { ContentTokenCache, TokenCounter, type TokenCounting } from '@ollm/core';

const ownCaches = new WeakMap<TokenCounting, ContentTokenCache>();

/**
 * The counter trim counts with, its texts counted once per content across calls. Most of trim's
 * own tokenisation is of texts it met before: tool-call arguments measured on every pass, the
 * placeholders and fold notes it drafts, the sentences of old assistant messages. Core's
 * `TokenCounter` keeps those counts already (its content cache, shared per tokenizer) and is used
 * as it is; any other `TokenCounting` a host passes gets a bounded content cache of its own, kept
 * with that counter object, so the next call with the same counter reuses it.
 */
export function withContentCache(tokens: TokenCounting): TokenCounting {
  if (tokens instanceof TokenCounter && tokens.contentCache !== undefined) return tokens;
  let cache = ownCaches.get(tokens);
  if (cache === undefined) {
    cache = new ContentTokenCache();
    ownCaches.set(tokens, cache);
  }
  const contentCache = cache;
  const countText = (text: string): number => tokens.countText(text);
  return {
    tokenizer: tokens.tokenizer,
    countText: (text) => contentCache.count(text, countText),
    // A count known in full answers; otherwise the host's counter counts only as far as `limit`
    // when it can (a count within the limit is exact, and kept), else the whole text, kept.
    countTextUpTo: (text, limit) => {
      const known = contentCache.peek(text);
      if (known !== undefined) return known;
      if (!tokens.countTextUpTo) return contentCache.count(text, countText);
      const counted = tokens.countTextUpTo(text, limit);
      return counted <= limit ? contentCache.count(text, () => counted) : counted;
    },
    countPartText: (part) => tokens.countPartText(part),
    countMessage: (message) => tokens.countMessage(message),
    countMessages: (messages) => tokens.countMessages(messages),
  };
}
