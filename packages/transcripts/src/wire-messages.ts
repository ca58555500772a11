import type { WireFormat, WireMessages } from './wire-format.js';
import { restoreCheckpoint, withoutCheckpointMetadata } from './checkpoint-header.js';
import { CODECS } from './formats/codecs.js';
import { parseJsonText } from './json/parse-json-text.js';
import { readResponsesItems } from './responses-items.js';

export type { WireFormat, WireMessages } from './wire-format.js';

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
