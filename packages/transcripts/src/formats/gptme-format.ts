import { toolCallArguments, type Message, type MessagePart } from '@ollm/core';
import { isRecord, orderLike } from '../json/order-like.js';
import { invalidTranscript } from '../validation/invalid-transcript.js';
import { expectArray, expectRecord, expectString } from '../validation/expect.js';
import type { FormatCodec, SourceReference } from './format-codec.js';
import { createMessageIds } from './message-ids.js';

const ROLES = ['system', 'user', 'assistant'] as const;
const MODEL_FIELDS = new Set(['role', 'content', 'timestamp', 'files', 'pinned']);

/**
 * gptme's `conversation.jsonl`: one message per line, `{role, content, timestamp, files?, pinned?,
 * hide?, call_id?, metadata?, ...}` with roles system | user | assistant. gptme returns tool output
 * as `system` messages; a system message after the conversation has started is therefore read as
 * a `tool` message (text, `metadata.sourceRole = 'system'`) so providers may compress it, and is
 * written back as `system`. Positions in errors are line numbers.
 */
export const gptmeFormat: FormatCodec = {
  format: 'gptme',
  syntax: 'jsonl',
  read(document, file) {
    const lines = expectArray(document, file, 'line 1', 'the document');
    const messages: Message[] = [];
    const sources = new Map<string, SourceReference>();
    let started = false;
    const idOf = createMessageIds();
    lines.forEach((value, index) => {
      const position = `line ${index + 1}`;
      const source = expectRecord(value, file, position, 'a message');
      const sourceRole = ROLES.find((role) => role === source.role);
      if (!sourceRole) throw invalidTranscript(file, position, `unknown role ${JSON.stringify(source.role)} (expected one of: ${ROLES.join(', ')})`);
      const isToolOutput = sourceRole === 'system' && started;
      started ||= sourceRole !== 'system';
      const parts: MessagePart[] = [{ type: 'text', text: expectString(source.content, file, position, 'content') }];
      if (source.files !== undefined) {
        expectArray(source.files, file, position, 'files').forEach((path, fileIndex) => {
          const uri = expectString(path, file, `${position}, file ${fileIndex}`, 'a file');
          parts.push({ type: 'file', mediaType: mediaTypeOf(uri), uri, name: uri.split('/').pop() ?? uri });
        });
      }
      const timestamp = source.timestamp === undefined ? undefined : expectString(source.timestamp, file, position, 'timestamp');
      const metadata: Record<string, unknown> = Object.fromEntries(Object.entries(source).filter(([key]) => !MODEL_FIELDS.has(key)));
      if (isToolOutput) metadata.sourceRole = 'system';
      const id = idOf(source.id, index);
      messages.push({
        id,
        role: isToolOutput ? 'tool' : sourceRole,
        parts,
        ...(timestamp === undefined ? {} : { timestamp }),
        ...(source.pinned === true ? { pinned: true } : {}),
        ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
      });
      sources.set(id, { source, group: index });
    });
    return [{ id: 'conversation', messages, sources }];
  },
  write(_document, conversations, sources) {
    let lastTimestamp: string | undefined;
    return (conversations[0]?.messages ?? []).map((message) => {
      const source = sources[0]?.get(message.id)?.source;
      // A message read from the file has the timestamp it was read with, or none: none is invented.
      // A new message (a summary) takes its predecessor's, so the log stays chronological.
      const timestamp = message.timestamp ?? (source ? undefined : lastTimestamp);
      lastTimestamp = timestamp ?? lastTimestamp;
      return writeGptmeLine(message, timestamp, source);
    });
  },
};

function writeGptmeLine(message: Message, timestamp: string | undefined, source: Record<string, unknown> | undefined): Record<string, unknown> {
  const { sourceRole, ...metadata } = message.metadata ?? {};
  const role = message.role === 'tool' ? 'system' : typeof sourceRole === 'string' ? sourceRole : message.role;
  const content = message.parts
    .map((part) => {
      if (part.type === 'text' || part.type === 'reasoning') return part.text;
      if (part.type === 'tool-call') return `${part.name} ${toolCallArguments(part)}`;
      if (part.type === 'tool-result') return part.output;
      return undefined;
    })
    .filter((text) => text !== undefined)
    .join('\n');
  const files = message.parts.flatMap((part) => (part.type === 'file' && part.uri !== undefined ? [part.uri] : []));
  const written: Record<string, unknown> = {
    role,
    content,
    ...(timestamp === undefined ? {} : { timestamp }),
    ...(files.length > 0 ? { files } : {}),
    ...(message.pinned ? { pinned: true } : {}),
    // Source fields come back only for messages that kept their id; new messages are written plainly.
    ...(source ? metadata : {}),
  };
  // gptme writes `pinned` only when true; keep an explicit `false` that the source had.
  if (!message.pinned && source?.pinned === false) written.pinned = false;
  return orderLike(written, source);
}

function mediaTypeOf(path: string): string {
  const extension = path.split('.').pop()?.toLowerCase() ?? '';
  const known: Record<string, string> = {
    png: 'image/png',
    jpg: 'image/jpeg',
    jpeg: 'image/jpeg',
    gif: 'image/gif',
    webp: 'image/webp',
    pdf: 'application/pdf',
  };
  return known[extension] ?? 'text/plain';
}

/** One gptme line: an object with a role, string content and a timestamp. */
export function looksLikeGptmeLine(value: unknown): boolean {
  return isRecord(value) && typeof value.role === 'string' && typeof value.content === 'string' && typeof value.timestamp === 'string';
}
