import { InvalidArgumentError } from '@ollm/core';

/** Share of the window kept back for the reply by default: Ollama's 13,600 usable tokens of a 16K window. */
export const DEFAULT_REPLY_RESERVE_SHARE = 0.15;
/** The smallest reserve that leaves a reply room for more than a word or two. */
export const MINIMUM_REPLY_RESERVE = 16;

/**
 * The tokens kept back for the model's reply: the configured number, else 15% of the window.
 * At least 16 tokens, and it must leave at least half the window for the request.
 */
export function resolveReplyReserve(contextSize: number, configured: number | undefined): number {
  const reserve = configured ?? Math.max(MINIMUM_REPLY_RESERVE, Math.floor(contextSize * DEFAULT_REPLY_RESERVE_SHARE));
  if (!Number.isInteger(reserve) || reserve < MINIMUM_REPLY_RESERVE || reserve > contextSize / 2) {
    throw new InvalidArgumentError({
      argument: 'replyReserve',
      message: `The reply reserve (--reply-reserve, compaction.replyReserve) must be a whole number of tokens from ${MINIMUM_REPLY_RESERVE} to half the window (${Math.floor(contextSize / 2)} of ${contextSize}); got ${configured}.`,
    });
  }
  return reserve;
}
