import { saveRemovedContent, type CompactionWarning, type ContextProviderV2, type RemovedContent } from '@ollm/core';
import { resolveFoldOptions, type FoldOptions } from './fold-options.js';
import { foldConversation, type FoldedPiece } from './plan/fold-conversation.js';

export const FOLD_PROVIDER_NAME = 'fold';

function saveAll(pieces: readonly FoldedPiece[], logdir: string | undefined): RemovedContent[] {
  const seen = new Set<string>();
  const removed: RemovedContent[] = [];
  for (const piece of pieces) {
    if (seen.has(piece.sha256)) continue;
    seen.add(piece.sha256);
    const path = logdir === undefined ? undefined : saveRemovedContent(logdir, piece.content, piece.sha256).path;
    removed.push({ messageId: piece.messageId, kind: piece.kind, sha256: piece.sha256, originalTokens: piece.originalTokens, ...(path ? { path } : {}) });
  }
  return removed;
}

/**
 * Rule-based compaction that keeps the facts an agent needs next and reaches any budget the
 * fixed messages leave room for: the newest turns verbatim, every older run of turns one digest
 * holding verbatim the lines that matter (exceptions, test summaries, traceback frames, the
 * newest line of each name, lines of the files being worked on), and the names nothing kept shows.
 * Every folded run is saved for recovery.
 */
export function createFoldProvider(options: FoldOptions = {}): ContextProviderV2 {
  resolveFoldOptions(options);
  return {
    specificationVersion: 'v2',
    usesModel: false,
    name: FOLD_PROVIDER_NAME,
    description: 'Rule-based, no model, reaches any budget: the newest turns verbatim, older ones folded to the fact lines they showed',
    async compress(call) {
      const resolved = resolveFoldOptions(options, call.providerOptions);
      call.abortSignal?.throwIfAborted();
      const folded = foldConversation(call.messages, call.limit, call.tokens, resolved);
      const before = call.tokens.countMessages(call.messages);
      if (folded.tokens >= before) {
        call.logger.debug(`fold: output ${folded.tokens} >= input ${before} tokens; the input is kept`);
        return {
          messages: call.messages,
          removed: [],
          warnings: call.limit !== undefined && before > call.limit ? [{ type: 'limit-not-reached', tokens: before, limit: call.limit }] : [],
        };
      }
      const removed = saveAll(folded.pieces, call.settings.logdir);
      const warnings: CompactionWarning[] = [];
      if (call.limit !== undefined && folded.tokens > call.limit) warnings.push({ type: 'limit-not-reached', tokens: folded.tokens, limit: call.limit });
      if (removed.length > 0 && call.settings.logdir === undefined) {
        warnings.push({
          type: 'not-recoverable',
          reason: `no logdir was given, so only the sha256 of each of the ${removed.length} folded pieces is recorded`,
        });
      }
      call.logger.debug(`fold: ${folded.summary}; ${folded.tokens} tokens`);
      return { messages: folded.messages, removed, warnings, ...(folded.folded.length > 0 ? { folded: folded.folded } : {}) };
    },
  };
}
