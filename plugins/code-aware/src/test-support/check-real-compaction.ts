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
    expect(sha256Hex(content)).toBe(entry.sha256);
    const original = messages.find((message) => message.id === entry.messageId)!;
    const texts = original.parts.map((part) =>
      part.type === 'tool-result' ? part.output : part.type === 'text' ? part.text : part.type === 'tool-call' ? commandOf(part) : '',
    );
    expect(texts).toContain(content);
  }
  return result;
}
