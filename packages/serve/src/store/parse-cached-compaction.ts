import type { CachedCompaction } from './proxy-store.js';

/**
 * The compaction a stored JSON text holds, or undefined when the text is not one (unparsable,
 * truncated, written by something else): a store is a cache, so a damaged entry is a miss and
 * the proxy compacts again.
 */
export function parseCachedCompaction(text: string | null | undefined): CachedCompaction | undefined {
  if (typeof text !== 'string') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isCachedCompaction(value) ? value : undefined;
}

function isCachedCompaction(value: unknown): value is CachedCompaction {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entry = value as Record<string, unknown>;
  return (
    isCount(entry['coveredMessages']) &&
    Array.isArray(entry['messages']) &&
    isCount(entry['tokensBefore']) &&
    isCount(entry['tokensAfter']) &&
    isStringList(entry['stages']) &&
    isStringList(entry['references'])
  );
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
