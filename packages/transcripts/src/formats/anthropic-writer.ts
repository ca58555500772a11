import type { Message } from '@ollm/core';
import { isRecord, orderLike } from '../json/order-like.js';
import { setField } from '../json/own-fields.js';
import { reuseUnchangedBlocks } from '../json/reuse-unchanged-blocks.js';
import { readAnthropicBlock, writeAnthropicBlock } from './anthropic-blocks.js';
import { SYSTEM_GROUP } from './anthropic-reader.js';
import type { SourceReference } from './format-codec.js';

interface Entry {
  role: 'user' | 'assistant' | 'system';
  messages: Message[];
  group?: number;
  source?: Record<string, unknown>;
  /** A run of new tool messages, merged because the API wants one user turn of results. */
  newToolResults?: boolean;
}

/** Writes messages as an Anthropic Messages API body over `document`. */
export function writeAnthropic(document: unknown, messages: readonly Message[], sources: ReadonlyMap<string, SourceReference> | undefined): unknown {
  // Leading system messages are the top-level `system`, unless they were read from inside `messages`.
  let start = 0;
  while (messages[start]?.role === 'system' && !insideMessages(messages[start]!, sources)) start += 1;
  const systemMessages = messages.slice(0, start);

  const entries: Entry[] = [];
  for (const message of messages.slice(start)) {
    const reference = sources?.get(message.id);
    const group = reference && reference.group !== SYSTEM_GROUP ? reference.group : undefined;
    const last = entries.at(-1);
    if (last && group !== undefined && last.group === group) {
      last.messages.push(message);
    } else if (last?.newToolResults && group === undefined && message.role === 'tool') {
      last.messages.push(message);
    } else {
      // Anthropic has no system role inside `messages`: a system message there is written as user text.
      entries.push({
        role: message.role === 'assistant' ? 'assistant' : message.role === 'system' && group !== undefined ? 'system' : 'user',
        messages: [message],
        ...(group === undefined ? { newToolResults: message.role === 'tool' } : { group, source: reference!.source }),
      });
    }
  }

  const written = entries.map((entry) => writeEntry(entry));
  if (!isRecord(document)) return written;
  const result: Record<string, unknown> = { ...document, messages: written };
  if (systemMessages.length > 0) result.system = writeSystem(systemMessages, sources);
  else delete result.system;
  return orderLike(result, document);
}

function writeEntry(entry: Entry): Record<string, unknown> {
  const parts = entry.messages.flatMap((message) => message.parts);
  const sourceContent = entry.source?.content;
  // Source fields come back only for messages that kept their id; new messages are written plainly.
  const metadata: Record<string, unknown> = {};
  if (entry.source) for (const message of entry.messages) for (const [key, member] of Object.entries(message.metadata ?? {})) setField(metadata, key, member);
  let content: unknown;
  const onlyText = parts.length === 1 && parts[0]!.type === 'text' ? parts[0]!.text : undefined;
  if (onlyText !== undefined && (entry.source === undefined || typeof sourceContent === 'string')) {
    content = onlyText;
  } else {
    const blocks = parts.map((part) => ({ part, block: writeAnthropicBlock(part) }));
    content = reuseUnchangedBlocks(blocks, Array.isArray(sourceContent) ? sourceContent : [], (block) => readAnthropicBlock(block, '', ''));
  }
  return orderLike({ ...metadata, role: entry.role, content }, entry.source);
}

function writeSystem(systemMessages: readonly Message[], sources: ReadonlyMap<string, SourceReference> | undefined): unknown {
  const parts = systemMessages.flatMap((message) => message.parts);
  const sourceSystem = systemMessages.map((message) => sources?.get(message.id)?.source.system).find((system) => system !== undefined);
  if (!Array.isArray(sourceSystem)) {
    return parts
      .filter((part) => part.type === 'text')
      .map((part) => part.text)
      .join('\n');
  }
  const blocks = parts.map((part) => ({ part, block: writeAnthropicBlock(part) }));
  return reuseUnchangedBlocks(blocks, sourceSystem, (block) => readAnthropicBlock(block, '', ''));
}

/** A system message read from inside `messages` (role `system` there), not from the top-level `system`. */
function insideMessages(message: Message, sources: ReadonlyMap<string, SourceReference> | undefined): boolean {
  const reference = sources?.get(message.id);
  return reference !== undefined && reference.group !== SYSTEM_GROUP;
}
