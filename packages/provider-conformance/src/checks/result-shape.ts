import type { CompactionResult } from '@ollm/core';

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Describes what is wrong with the shape of a value `compress` resolved to, or undefined when it
 * has every field the other checks read. Checked first so a malformed result is one clear
 * failure instead of a TypeError inside another check.
 */
export function describeResultShapeProblem(result: unknown): string | undefined {
  if (!isObject(result)) return `compress resolved to ${result === null ? 'null' : typeof result}, not a result object`;
  const { messages, sourceDigest, removed, limitations, stats } = result as Partial<Record<keyof CompactionResult, unknown>>;
  if (!Array.isArray(messages)) return 'result.messages is not an array';
  const badMessage = messages.findIndex(
    (message) => !isObject(message) || typeof message.id !== 'string' || typeof message.role !== 'string' || !Array.isArray(message.parts),
  );
  if (badMessage >= 0) return `result.messages[${badMessage}] is not a message with id, role and parts`;
  if (typeof sourceDigest !== 'string') return 'result.sourceDigest is not a string';
  if (!Array.isArray(removed)) return 'result.removed is not an array';
  if (!Array.isArray(limitations)) return 'result.limitations is not an array';
  if (!isObject(stats) || typeof stats.tokensBefore !== 'number' || typeof stats.tokensAfter !== 'number') {
    return 'result.stats lacks numeric tokensBefore / tokensAfter';
  }
  return undefined;
}
