import type { RemovedContent } from '@ollm/core';
import type { ContextEvents } from '@ollm/runtime';
import { formatInteger } from '../output/format-number.js';

/** `compacted with trim: 12,000 -> 6,100 tokens` (automatic ones say so). */
export function describeCompaction(event: ContextEvents['compacted']): string {
  const how = event.trigger === 'automatic' ? ' (automatic)' : '';
  return `compacted with ${event.provider}${how}: ${formatInteger(event.stats.tokensBefore)} -> ${formatInteger(event.stats.tokensAfter)} tokens`;
}

/** What a compaction removed, by kind: `removed: 3 tool-result (2,400 tokens), 1 message (310 tokens); saved under ~/.ollm/removed`. */
export function describeRemoved(removed: readonly RemovedContent[], savedUnder: string): string {
  if (removed.length === 0) return 'removed: nothing (content was shortened or summarised in place)';
  const byKind = new Map<string, { count: number; tokens: number }>();
  for (const piece of removed) {
    const entry = byKind.get(piece.kind) ?? { count: 0, tokens: 0 };
    entry.count += 1;
    entry.tokens += piece.originalTokens;
    byKind.set(piece.kind, entry);
  }
  const parts = [...byKind].map(([kind, entry]) => `${entry.count} ${kind} (${formatInteger(entry.tokens)} tokens)`);
  const saved = removed.some((piece) => piece.path) ? `; saved under ${savedUnder} (ollm recover <sha256>)` : '';
  return `removed: ${parts.join(', ')}${saved}`;
}
