import { expect } from 'vitest';
import {
  canonicalMessage,
  compactWith,
  createProviderContext,
  readRemovedContent,
  sha256Hex,
  type CompactionResult,
  type ContextProvider,
  type Message,
  type ProviderContext,
} from '@ollm/core';
import { commandOf } from '../views/find-heredoc-writes.js';

const sharedContext: ProviderContext = createProviderContext();

/**
 * Compacts a real conversation at half its tokens through the host (`compactWith`, which rejects
 * any broken integrity rule) and checks what every transcript must keep: under the limit or a
 * limitation saying why not, system and user messages byte-identical, and every removed piece
 * recoverable byte for byte under its sha256.
 */
export async function checkRealCompaction(provider: ContextProvider, messages: readonly Message[], logdir: string): Promise<CompactionResult> {
  const limit = Math.floor(sharedContext.tokens.countMessages(messages) / 2);
  const result = await compactWith(provider, messages, { config: { limit, logdir }, context: sharedContext });
  if (result.stats.tokensAfter > limit) expect(result.limitations.join('\n')).toMatch(/above the limit/);
  const output = new Map(result.messages.map((message) => [message.id, message]));
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'user' || message.pinned) {
      expect(canonicalMessage(output.get(message.id)!)).toBe(canonicalMessage(message));
    }
  }
  for (const entry of result.removed) {
    const content = readRemovedContent(logdir, entry.sha256);
    const original = messages.find((message) => message.id === entry.messageId)!;
    const texts = original.parts.map((part) =>
      part.type === 'tool-result' ? part.output : part.type === 'text' ? part.text : part.type === 'tool-call' ? commandOf(part) : '',
    );
    const removed = texts.find((text) => text !== undefined && sha256Hex(text) === entry.sha256);
    expect(removed, `no part of ${entry.messageId} hashes to ${entry.sha256}`).toBeDefined();
    // The recovery store replaces secrets (URL credentials) by `[redacted]` when it saves.
    if (content !== removed) expect(isRedactedFrom(content, removed!), `${entry.sha256} is neither the content removed nor a redaction of it`).toBe(true);
  }
  return result;
}

/** True when `stored` is `original` with some stretches replaced by `[redacted]`. */
function isRedactedFrom(stored: string, original: string): boolean {
  const pieces = stored.split('[redacted]');
  if (pieces.length < 2 || !original.startsWith(pieces[0]!) || !original.endsWith(pieces[pieces.length - 1]!)) return false;
  let at = pieces[0]!.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = original.indexOf(piece, at);
    if (found < 0) return false;
    at = found + piece.length;
  }
  return at <= original.length - pieces[pieces.length - 1]!.length;
}
