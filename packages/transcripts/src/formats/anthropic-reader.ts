import type { Message, MessagePart } from '@ollm/core';
import { isRecord } from '../json/order-like.js';
import { checkToolPairing } from '../validation/check-tool-pairing.js';
import { invalidTranscript } from '../validation/invalid-transcript.js';
import { expectArray, expectRecord } from '../validation/expect.js';
import { readAnthropicBlock } from './anthropic-blocks.js';
import type { ReadConversation, SourceReference } from './format-codec.js';
import { createMessageIds } from './message-ids.js';

/** Group of the top-level `system` prompt, which is not one of `messages`. */
export const SYSTEM_GROUP = -1;

/**
 * Reads an Anthropic Messages API body. The top-level `system` becomes a system message (id
 * `system`). Tool results arrive inside user messages; each becomes its own `tool` message so
 * providers may compress it (user messages are never compressed). Pieces split from source
 * message i get ids `m<i>`, `m<i>.1`, ... and are merged back into one user message when written.
 */
export function readAnthropic(document: unknown, file: string): ReadConversation[] {
  const wrapped = isRecord(document);
  const values = wrapped ? expectArray(document.messages, file, 'messages', '"messages"') : expectArray(document, file, 'line 1', 'the document');
  const messages: Message[] = [];
  const groups: number[] = [];
  const sources = new Map<string, SourceReference>();
  const add = (message: Message, source: Record<string, unknown>, group: number): void => {
    messages.push(message);
    groups.push(group);
    sources.set(message.id, { source, group });
  };

  if (wrapped && document.system !== undefined) {
    const system = readSystem(document.system, file);
    add({ id: 'system', role: 'system', parts: system }, { system: document.system }, SYSTEM_GROUP);
  }
  const idOf = createMessageIds();
  values.forEach((value, index) => {
    const position = `message ${index}`;
    const source = expectRecord(value, file, position, 'a message');
    const baseId = idOf(source.id, index);
    const metadata = Object.fromEntries(Object.entries(source).filter(([key]) => key !== 'role' && key !== 'content'));
    // Claude Code sends role-system messages inside `messages` too (reminders mid-conversation): a system message, kept where it is.
    if (source.role === 'system') {
      add({ id: baseId, role: 'system', parts: readSystem(source.content, file), ...(Object.keys(metadata).length > 0 ? { metadata } : {}) }, source, index);
      return;
    }
    if (source.role !== 'user' && source.role !== 'assistant') {
      throw invalidTranscript(file, position, `unknown role ${JSON.stringify(source.role)} (expected one of: user, assistant, system)`);
    }
    const pieces = readPieces(source.role, source.content, file, position);
    pieces.forEach((piece, pieceIndex) => {
      const id = pieceIndex === 0 ? baseId : `${baseId}.${pieceIndex}`;
      const withMetadata = pieceIndex === 0 && Object.keys(metadata).length > 0 ? { metadata } : {};
      add({ id, role: piece.role, parts: piece.parts, ...withMetadata }, source, index);
    });
  });
  checkToolPairing(messages, file, (index) => (groups[index] === SYSTEM_GROUP ? 'system' : `message ${groups[index]}`));
  return [{ id: wrapped && typeof document.id === 'string' ? document.id : 'conversation', messages, sources }];
}

function readSystem(system: unknown, file: string): MessagePart[] {
  if (typeof system === 'string') return [{ type: 'text', text: system }];
  return expectArray(system, file, 'system', '"system"').map((block, index) => readAnthropicBlock(block, file, `system block ${index}`));
}

interface Piece {
  role: 'user' | 'assistant' | 'tool';
  parts: MessagePart[];
}

/** An assistant message stays whole; a user message splits at its tool results, in block order. */
function readPieces(role: 'user' | 'assistant', content: unknown, file: string, position: string): Piece[] {
  if (typeof content === 'string') return [{ role, parts: [{ type: 'text', text: content }] }];
  const parts = expectArray(content, file, position, 'content').map((block, index) => readAnthropicBlock(block, file, `${position}, block ${index}`));
  if (role === 'assistant') return [{ role, parts }];
  const pieces: Piece[] = [];
  for (const part of parts) {
    if (part.type === 'tool-result') {
      pieces.push({ role: 'tool', parts: [part] });
      continue;
    }
    const last = pieces.at(-1);
    if (last?.role === 'user') last.parts.push(part);
    else pieces.push({ role: 'user', parts: [part] });
  }
  return pieces.length > 0 ? pieces : [{ role, parts: [] }];
}
