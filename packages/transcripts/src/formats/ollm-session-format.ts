import { MESSAGE_ROLES, type Message, type MessagePart } from '@ollm/core';
import { CHECKPOINT_METADATA_KEYS, restoreCheckpoint, withoutCheckpointMetadata } from '../checkpoint-header.js';
import { isRecord, orderLike } from '../json/order-like.js';
import { sameJson } from '../json/same-json.js';
import { checkToolPairing } from '../validation/check-tool-pairing.js';
import { invalidTranscript } from '../validation/invalid-transcript.js';
import { describeType, expectArray, expectRecord, expectString, optionalString } from '../validation/expect.js';
import type { FormatCodec, SourceReference } from './format-codec.js';
import { createMessageIds } from './message-ids.js';

/** Message fields of the layout; any other field of a source message is kept in the source and written back. */
const MESSAGE_FIELDS = new Set(['id', 'role', 'parts', 'timestamp', 'pinned', 'name', 'metadata']);
const PART_TYPES: readonly MessagePart['type'][] = ['text', 'reasoning', 'tool-call', 'tool-result', 'file'];

/**
 * ollm's JSON session layout, as `ollm chat`'s `/export` and `ollm sessions export` write it
 * (`exportSession` in @ollm/runtime): `{sessionId, startTime, lastActivity, model?, provider?,
 * messages: [{role, parts, timestamp?}], toolCalls, metadata}`. The messages are ollm's own, so
 * they are read as they are: every part with all its fields, the timestamp, and `id`, `pinned`,
 * `name` and `metadata` where a message has them (checkpoint metadata included: this layout has a
 * field for it). The session's own fields (`toolCalls`, `metadata`, ...) are the session's record;
 * they stay in the document and are written back as read.
 */
export const ollmSessionFormat: FormatCodec = {
  format: 'ollm-session',
  syntax: 'json',
  carriesMetadata: true,
  read(document, file) {
    const session = expectRecord(document, file, 'line 1', 'a session');
    const values = expectArray(session.messages, file, 'messages', '"messages"');
    const messages: Message[] = [];
    const sources = new Map<string, SourceReference>();
    const idOf = createMessageIds();
    values.forEach((value, index) => {
      const message = readSessionMessage(value, file, `message ${index}`, idOf(isRecord(value) ? value.id : undefined, index));
      messages.push(message);
      sources.set(message.id, { source: value as Record<string, unknown>, group: index });
    });
    checkToolPairing(messages, file, (index) => `message ${index}`);
    const id = typeof session.sessionId === 'string' && session.sessionId !== '' ? session.sessionId : 'session';
    return [{ id, messages, sources }];
  },
  write(document, conversations, sources) {
    const session = isRecord(document) ? document : {};
    // A layout whose messages carry ids gives new messages theirs too; the first layout has none.
    const layoutHasIds = Array.isArray(session.messages) && session.messages.some((message) => isRecord(message) && Object.hasOwn(message, 'id'));
    const messages = (conversations[0]?.messages ?? []).map((message) => writeSessionMessage(message, sources[0]?.get(message.id)?.source, layoutHasIds));
    return { ...session, messages };
  },
};

/** The layout's distinctive keys: a `sessionId` with the session's times or its joined tool calls. */
export function looksLikeOllmSession(document: unknown): boolean {
  return (
    isRecord(document) &&
    typeof document.sessionId === 'string' &&
    (typeof document.startTime === 'string' || typeof document.lastActivity === 'string' || Array.isArray(document.toolCalls))
  );
}

function readSessionMessage(value: unknown, file: string, position: string, id: string): Message {
  const source = expectRecord(value, file, position, 'a message');
  const role = MESSAGE_ROLES.find((candidate) => candidate === source.role);
  if (!role) throw invalidTranscript(file, position, `unknown role ${JSON.stringify(source.role)} (expected one of: ${MESSAGE_ROLES.join(', ')})`);
  const parts = expectArray(source.parts, file, position, '"parts"').map((part, index) => readPart(part, file, `${position}, part ${index}`));
  const timestamp = optionalString(source.timestamp, file, position, 'timestamp');
  const name = optionalString(source.name, file, position, 'name');
  if (source.pinned !== undefined && typeof source.pinned !== 'boolean') {
    throw invalidTranscript(file, position, `pinned must be a boolean, got ${describeType(source.pinned)}`);
  }
  const metadata = source.metadata === undefined ? undefined : expectRecord(source.metadata, file, position, 'metadata');
  return {
    id,
    role,
    parts,
    ...(timestamp === undefined ? {} : { timestamp }),
    ...(source.pinned === undefined ? {} : { pinned: source.pinned }),
    ...(name === undefined ? {} : { name }),
    ...(metadata === undefined ? {} : { metadata: { ...metadata } }),
  };
}

/** A part as the exporter wrote it (a copy of ollm's part, extra fields included), checked field by field. */
function readPart(value: unknown, file: string, position: string): MessagePart {
  const part = expectRecord(value, file, position, 'a part');
  const optional = (key: string): void => {
    optionalString(part[key], file, position, key);
  };
  switch (part.type) {
    case 'text':
    case 'reasoning':
      expectString(part.text, file, position, 'text');
      break;
    case 'tool-call':
      expectString(part.callId, file, position, 'callId');
      expectString(part.name, file, position, 'name');
      optional('rawInput');
      break;
    case 'tool-result':
      expectString(part.callId, file, position, 'callId');
      expectString(part.output, file, position, 'output');
      optional('name');
      if (part.isError !== undefined && typeof part.isError !== 'boolean') {
        throw invalidTranscript(file, position, `isError must be a boolean, got ${describeType(part.isError)}`);
      }
      break;
    case 'file':
      expectString(part.mediaType, file, position, 'mediaType');
      ['uri', 'data', 'name'].forEach(optional);
      break;
    default:
      throw invalidTranscript(file, position, `unknown part type ${JSON.stringify(part.type)} (expected one of: ${PART_TYPES.join(', ')})`);
  }
  return { ...part } as unknown as MessagePart;
}

function writeSessionMessage(message: Message, source: Record<string, unknown> | undefined, layoutHasIds: boolean): Record<string, unknown> {
  // Source fields come back only for messages that kept their id; new messages are written plainly.
  const written: Record<string, unknown> = source ? Object.fromEntries(Object.entries(source).filter(([key]) => !MESSAGE_FIELDS.has(key))) : {};
  // A kept message writes the id as the source had it (the read id differs only for a duplicate).
  if (source ? Object.hasOwn(source, 'id') : layoutHasIds) written.id = source && Object.hasOwn(source, 'id') ? source.id : message.id;
  written.role = message.role;
  written.parts = message.parts.map((part) => ({ ...part }));
  if (message.timestamp !== undefined) written.timestamp = message.timestamp;
  if (message.pinned === true || (message.pinned === false && source !== undefined && Object.hasOwn(source, 'pinned'))) written.pinned = message.pinned;
  if (message.name !== undefined) written.name = message.name;
  const metadata = metadataToWrite(message, source);
  if (metadata !== undefined) written.metadata = metadata;
  return orderLike(written, source);
}

/**
 * The message's metadata, less the checkpoint keys that reading restored from the header line
 * (the source had none, and they say nothing the header does not): so a file written by the
 * exporter, which keeps no message metadata, is written back as it was.
 */
function metadataToWrite(message: Message, source: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (message.metadata === undefined) return undefined;
  const sourceMetadata = source && isRecord(source.metadata) ? source.metadata : undefined;
  const stripped = withoutCheckpointMetadata(message);
  // Only a message with a checkpoint header line has keys the header gives back.
  const derived = stripped === message ? {} : (restoreCheckpoint(stripped).metadata ?? {});
  const metadata = Object.fromEntries(
    Object.entries(message.metadata).filter(
      ([key, value]) =>
        !CHECKPOINT_METADATA_KEYS.includes(key) || (sourceMetadata !== undefined && Object.hasOwn(sourceMetadata, key)) || !sameJson(value, derived[key]),
    ),
  );
  return Object.keys(metadata).length > 0 || sourceMetadata !== undefined ? orderLike(metadata, sourceMetadata) : undefined;
}
