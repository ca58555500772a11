import type { Message, MessageRole } from '@ollm/core';
import type { SourceReference } from '../formats/format-codec.js';
import { createMessageIds } from '../formats/message-ids.js';
import { isRecord } from '../json/order-like.js';
import { checkToolPairing } from '../validation/check-tool-pairing.js';
import { readOpenAIMessage } from './read-openai-message.js';
import { writeOpenAIMessage } from './write-openai-message.js';

export interface ReadOpenAIConversationOptions {
  readonly file: string;
  /** Prefix of positions in errors, e.g. `conversation task-3-trial-0, ` for tau-bench. */
  readonly positionPrefix?: string;
  readonly roles?: Readonly<Record<string, MessageRole>>;
  /** Where a tool message keeps the id of the call it answers (see `ReadOpenAIMessageOptions`). */
  readonly toolCallIdOf?: (source: Record<string, unknown>) => unknown;
  /** Format-specific finishing of each message (SWE-agent pins `exit`, adds timestamps). */
  readonly adjust?: (message: Message, source: Record<string, unknown>) => Message;
}

/** Reads an array of OpenAI chat messages; ids are the source's `id` where present, else `m<index>`. */
export function readOpenAIConversation(
  values: readonly unknown[],
  options: ReadOpenAIConversationOptions,
): { messages: Message[]; sources: Map<string, SourceReference> } {
  const positionOf = (index: number): string => `${options.positionPrefix ?? ''}message ${index}`;
  const messages: Message[] = [];
  const sources = new Map<string, SourceReference>();
  const idOf = createMessageIds();
  values.forEach((value, index) => {
    const id = idOf(isRecord(value) ? value.id : undefined, index);
    const read = readOpenAIMessage(value, {
      file: options.file,
      position: positionOf(index),
      id,
      ...(options.roles ? { roles: options.roles } : {}),
      ...(options.toolCallIdOf ? { toolCallIdOf: options.toolCallIdOf } : {}),
    });
    const source = value as Record<string, unknown>;
    messages.push(options.adjust ? options.adjust(read, source) : read);
    sources.set(id, { source, group: index });
  });
  checkToolPairing(messages, options.file, positionOf);
  return { messages, sources };
}

export function writeOpenAIConversation(messages: readonly Message[], sources: ReadonlyMap<string, SourceReference> | undefined): Record<string, unknown>[] {
  return messages.map((message) => {
    const source = sources?.get(message.id)?.source;
    return writeOpenAIMessage(message, isRecord(source) ? source : undefined);
  });
}
