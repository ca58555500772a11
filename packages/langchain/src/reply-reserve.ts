import { InvalidArgumentError } from '@ollm/core';
import { DEFAULT_REPLY_RESERVE_SHARE } from '@ollm/runtime';

/** Fields chat models keep their reply limit in: ChatOpenAI and ChatAnthropic `maxTokens`, ChatGoogle `maxOutputTokens`, ChatOllama `numPredict`. */
const REPLY_LIMIT_FIELDS = ['maxTokens', 'maxOutputTokens', 'numPredict'] as const;

/** The reply limit a chat model is configured with, when it has one. */
export function modelReplyLimit(model: unknown): number | undefined {
  if (model === null || typeof model !== 'object') return undefined;
  for (const field of REPLY_LIMIT_FIELDS) {
    const value = (model as Record<string, unknown>)[field];
    // ChatOpenAI once used -1 for "no limit".
    if (typeof value === 'number' && Number.isInteger(value) && value > 0) return value;
  }
  return undefined;
}

/**
 * The tokens kept for the reply: the configured number, else the model's own reply limit (the
 * server counts it against the window), else 15% of the window. It must leave at least half the
 * window for the request.
 */
export function resolveReplyReserve(contextSize: number, configured: number | undefined, model: unknown): number {
  const reserve = configured ?? modelReplyLimit(model) ?? Math.floor(contextSize * DEFAULT_REPLY_RESERVE_SHARE);
  if (!Number.isInteger(reserve) || reserve < 0 || reserve > contextSize / 2) {
    const source = configured !== undefined ? 'replyReserve' : "the model's maxTokens";
    throw new InvalidArgumentError({
      argument: 'replyReserve',
      message: `contextMiddleware: the reply reserve (${source}) must be a whole number of tokens from 0 to half the context size (${Math.floor(contextSize / 2)} of ${contextSize}); got ${reserve}.`,
    });
  }
  return reserve;
}
