import type { Message } from '@ollm/core';
import { restoreCheckpoint, withoutCheckpointMetadata } from './checkpoint-header.js';
import { CODECS } from './formats/codecs.js';
import { parseJsonText } from './json/parse-json-text.js';
import { readResponsesItems } from './responses-items.js';

/** The chat formats whose requests carry a `messages` array a model server reads. */
export type WireFormat = 'openai' | 'ollama' | 'anthropic' | 'responses';

/** Chat messages as a model server receives them, read into ollm messages and written back. */
export interface WireMessages {
  readonly messages: readonly Message[];
  /**
   * `messages` (or a compaction of them) in the wire format: a message that kept its id is
   * written over the wire message it was read from (keeping every field ollm does not model);
   * a new one is written plainly.
   */
  write(messages: readonly Message[]): unknown[];
}

/**
 * Reads an OpenAI, Ollama or Anthropic `messages` array (a request body's) without a transcript
 * file around it (an Anthropic body's top-level `system` is the caller's to pass as a first
 * role-system message). Errors are `InvalidTranscriptError`s naming `label` and the message's position.
 */
export function readWireMessages(format: WireFormat, values: readonly unknown[], label: string): WireMessages {
  // OpenAI Responses `input` items are no transcript format of their own: read by their own reader.
  if (format === 'responses') return readResponsesItems(values, label);
  const codec = CODECS[format];
  const document = { messages: values };
  const [conversation] = codec.read(document, label);
  if (!conversation) return { messages: [], write: () => [] };
  const { id, sources } = conversation;
  return {
    messages: conversation.messages.map(restoreCheckpoint),
    write(messages) {
      const written = codec.write(document, [{ id, messages: messages.map(withoutCheckpointMetadata) }], [sources]) as { messages: unknown[] };
      return written.messages;
    },
  };
}

/** `JSON.parse` whose error names `label`, the line and the column (an `InvalidTranscriptError`). */
export function parseJsonBody(text: string, label: string): unknown {
  return parseJsonText(text, label);
}
