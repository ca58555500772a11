import { formatInteger } from '@ollm/core';
import { ProxyError } from '../upstream/upstream-errors.js';

/**
 * The request cannot fit its model's window whatever is compacted: answered with a 400 in the
 * API's error shape, nothing sent upstream (the server would refuse it or cut it silently).
 */
export function requestTooLarge(details: {
  readonly model: string;
  readonly window: number;
  readonly reserve: number;
  readonly budget: number;
  readonly toolsTokens?: number;
  readonly tokens: number;
  readonly after?: number;
  readonly reason: string;
}): ProxyError {
  const { model, window, reserve, budget, tokens, after, reason, toolsTokens = 0 } = details;
  const count = formatInteger;
  const left = after === undefined ? '' : `, ${count(after)} after compaction`;
  const message =
    budget <= 0
      ? `ollm serve: the messages cannot fit the window of ${model}: ${reason} (a ${count(window)}-token window, ${count(reserve)} kept for the reply${toolsTokens > 0 ? `, ${count(toolsTokens)} for the tools` : ''})`
      : `ollm serve: the messages cannot fit the window of ${model}: ${count(tokens)} tokens${left}, over the ${count(budget)}-token budget (a ${count(window)}-token window less ${count(reserve)} for the reply${toolsTokens > 0 ? ` and ${count(toolsTokens)} for the tools` : ''}): ${reason}`;
  return new ProxyError({
    message,
    // Agents and SDKs tell a context overflow (compact and retry) from other errors (give up) by the
    // words their API uses: each route says it its way, first, then the proxy's own account.
    overflow: { window, tokens: (after ?? tokens) + reserve + toolsTokens },
    code: 'request-too-large',
    status: 400,
    type: 'context_length_exceeded',
  });
}
