import { saveRemovedContent, type CompactionWarning, type ContextProviderV2, type RemovedContent, type TokenCounting } from '@ollm/core';
import { countingIdentity } from './cache/counting-identity.js';
import { cachedCount } from './cache/fold-caches.js';
import { foldConversation } from './fold-conversation.js';
import { resolveFoldOptions, type FoldOptions } from './fold-options.js';
import type { FoldedPiece } from './digest/reference.js';
import { savedFormTokens } from './digest/saved-form.js';

export const FOLD_PROVIDER_NAME = 'fold';

/** Tokens of a piece as it was, counted once per content (a saved form of messages: per message). */
function pieceTokens(piece: FoldedPiece, tokens: TokenCounting): number {
  const identity = countingIdentity(tokens);
  return cachedCount(`${identity.id} piece ${piece.sha256}`, () =>
    piece.saved === undefined ? tokens.countText(piece.content) : savedFormTokens(piece.saved, () => piece.content, tokens, identity),
  );
}

function saveAll(pieces: readonly FoldedPiece[], logdir: string | undefined, tokens: TokenCounting): RemovedContent[] {
  const seen = new Set<string>();
  const removed: RemovedContent[] = [];
  for (const piece of pieces) {
    if (seen.has(piece.sha256)) continue;
    seen.add(piece.sha256);
    const path = logdir === undefined ? undefined : saveRemovedContent(logdir, piece.content, piece.sha256).path;
    removed.push({ messageId: piece.messageId, kind: piece.kind, sha256: piece.sha256, originalTokens: pieceTokens(piece, tokens), ...(path ? { path } : {}) });
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
      // Folding a conversation folded before, near its floor, can digest digests into longer ones:
      // then nothing is folded, and the input stands (a host refuses an output larger than its input).
      const before = call.tokens.countMessages(call.messages);
      if (folded.tokens > before) {
        call.logger.debug(`fold: output ${folded.tokens} > input ${before} tokens; the input is kept`);
        return {
          messages: call.messages,
          removed: [],
          warnings: call.limit !== undefined && before > call.limit ? [{ type: 'limit-not-reached', tokens: before, limit: call.limit }] : [],
        };
      }
      const removed = saveAll(folded.pieces, call.settings.logdir, call.tokens);
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
