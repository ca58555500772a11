import { InvalidArgumentError, type Message } from '@ollm/core';
import type { Transcript } from './transcript.js';

/**
 * A copy of the transcript with one conversation's messages replaced (e.g. by a compaction
 * result), or, given a map from conversation index to messages, several at once (one copy of the
 * conversation list however many: a tau-bench file holds thousands). The document stays, so
 * writing keeps what the messages don't carry.
 */
export function withConversationMessages(transcript: Transcript, conversationIndex: number, messages: readonly Message[]): Transcript;
export function withConversationMessages(transcript: Transcript, replacements: ReadonlyMap<number, readonly Message[]>): Transcript;
export function withConversationMessages(
  transcript: Transcript,
  indexOrReplacements: number | ReadonlyMap<number, readonly Message[]>,
  messages?: readonly Message[],
): Transcript {
  const replacements = typeof indexOrReplacements === 'number' ? new Map([[indexOrReplacements, messages ?? []]]) : indexOrReplacements;
  for (const conversationIndex of replacements.keys()) {
    if (!Number.isInteger(conversationIndex) || !transcript.conversations[conversationIndex]) {
      throw new InvalidArgumentError({
        argument: 'conversationIndex',
        message: `conversation ${conversationIndex} does not exist in ${transcript.file} (it has ${transcript.conversations.length})`,
      });
    }
  }
  const conversations = transcript.conversations.map((existing, index) => {
    const replaced = replacements.get(index);
    return replaced === undefined ? existing : { id: existing.id, messages: replaced };
  });
  return { ...transcript, conversations };
}
