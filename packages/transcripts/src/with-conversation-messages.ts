import { InvalidArgumentError, type Message } from '@ollm/core';
import type { Transcript } from './transcript.js';

/**
 * A copy of the transcript with one conversation's messages replaced (e.g. by a compaction
 * result). The document stays, so writing keeps what the messages don't carry.
 */
export function withConversationMessages(transcript: Transcript, conversationIndex: number, messages: readonly Message[]): Transcript {
  const conversation = transcript.conversations[conversationIndex];
  if (!Number.isInteger(conversationIndex) || !conversation) {
    throw new InvalidArgumentError({
      argument: 'conversationIndex',
      message: `conversation ${conversationIndex} does not exist in ${transcript.file} (it has ${transcript.conversations.length})`,
    });
  }
  const conversations = transcript.conversations.map((existing, index) => (index === conversationIndex ? { id: existing.id, messages } : existing));
  return { ...transcript, conversations };
}
