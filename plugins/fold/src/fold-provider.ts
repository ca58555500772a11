import { saveRemovedContent, type CompactionWarning, type ContextProviderV2, type RemovedContent } from '@ollm/core';
import { foldConversation } from './fold-conversation.js';
import { resolveFoldOptions, type FoldOptions } from './fold-options.js';
import type { FoldedPiece } from './digest/reference.js';

export const FOLD_PROVIDER_NAME = 'fold';

function saveAll(pieces: readonly FoldedPiece[], logdir: string | undefined, count: (text: string) => number): RemovedContent[] {
  const seen = new Set<string>();
  const removed: RemovedContent[] = [];
  for (const piece of pieces) {
    if (seen.has(piece.sha256)) continue;
    seen.add(piece.sha256);
    const path = logdir === undefined ? undefined : saveRemovedContent(logdir, piece.content, piece.sha256).path;
    removed.push({ messageId: piece.messageId, kind: piece.kind, sha256: piece.sha256, originalTokens: count(piece.content), ...(path ? { path } : {}) });
  }
  return removed;
}

/**
 * Graded rule-based compaction that reaches any budget the system and user messages leave room
 * for: old reasoning, then old tool outputs folded to digests (most tokens per later-used name
 * first), old turns to one line, whole old turns dropped with the names they held kept in one
 * digest per run, and only then the newest turns. Every folded piece is saved for recovery.
 */
export function createFoldProvider(options: FoldOptions = {}): ContextProviderV2 {
  resolveFoldOptions(options);
  return {
    specificationVersion: 'v2',
    usesModel: false,
    name: FOLD_PROVIDER_NAME,
    description:
      'Rule-based, no model, reaches any budget: old reasoning, tool outputs folded to digests, old turns to one line, old turns dropped with their names kept',
    async compress(call) {
      const resolved = resolveFoldOptions(options, call.providerOptions);
      call.abortSignal?.throwIfAborted();
      const folded = foldConversation(call.messages, call.limit, call.tokens, resolved);
      const removed = saveAll(folded.pieces, call.settings.logdir, (text) => call.tokens.countText(text));
      const warnings: CompactionWarning[] = [];
      if (call.limit !== undefined && folded.tokens > call.limit) warnings.push({ type: 'limit-not-reached', tokens: folded.tokens, limit: call.limit });
      if (removed.length > 0 && call.settings.logdir === undefined) {
        warnings.push({
          type: 'not-recoverable',
          reason: `no logdir was given, so only the sha256 of each of the ${removed.length} folded pieces is recorded`,
        });
      }
      call.logger.debug(`fold: levels ${JSON.stringify(folded.levels)}; ${folded.tokens} tokens`);
      return { messages: folded.messages, removed, warnings };
    },
  };
}
