import type { Message } from '@ollm/core';

/**
 * What a foreign message model has no place for (timestamp, pinned, metadata), restored from the
 * original message with the same id: the way @ollm/transcripts writes a compacted file back.
 */
export function originalFields(originals: ReadonlyMap<string, Message>, id: string): Pick<Message, 'timestamp' | 'pinned' | 'metadata'> {
  const original = originals.get(id);
  if (!original) return {};
  return {
    ...(original.timestamp !== undefined ? { timestamp: original.timestamp } : {}),
    ...(original.pinned !== undefined ? { pinned: original.pinned } : {}),
    ...(original.metadata !== undefined ? { metadata: original.metadata } : {}),
  };
}

export function indexById(messages: readonly Message[]): Map<string, Message> {
  return new Map(messages.map((message) => [message.id, message] as const));
}
