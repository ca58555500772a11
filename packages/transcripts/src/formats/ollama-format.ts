import type { Message, MessagePart, MessageRole, ToolCallPart } from '@ollm/core';
import { isRecord, orderLike } from '../json/order-like.js';
import { ownField, setField } from '../json/own-fields.js';
import { checkToolPairing } from '../validation/check-tool-pairing.js';
import { invalidTranscript } from '../validation/invalid-transcript.js';
import { expectArray, expectRecord, expectString, optionalString } from '../validation/expect.js';
import { isEmptyField } from '../openai-chat/read-openai-message.js';
import type { FormatCodec, ReadConversation, SourceReference } from './format-codec.js';
import { createMessageIds } from './message-ids.js';

const ROLES: readonly MessageRole[] = ['system', 'user', 'assistant', 'tool'];
const MODEL_FIELDS = new Set(['role', 'content', 'thinking', 'images', 'tool_calls', 'tool_name']);

/**
 * Ollama chat (`/api/chat` body or a bare message array). Tool calls carry no ids, so each gets
 * `ollama-<message>-<call>` (stable across reads), and a tool message answers the earliest
 * unanswered call with its `tool_name`.
 */
export const ollamaFormat: FormatCodec = {
  format: 'ollama',
  syntax: 'json',
  read(document, file) {
    const wrapped = isRecord(document);
    const values = wrapped ? expectArray(document.messages, file, 'messages', '"messages"') : expectArray(document, file, 'line 1', 'the document');
    const messages: Message[] = [];
    const sources = new Map<string, SourceReference>();
    const unanswered = new UnansweredCalls();
    const idOf = createMessageIds();
    values.forEach((value, index) => {
      const message = readOllamaMessage(value, index, file, unanswered, idOf);
      messages.push(message);
      sources.set(message.id, { source: value as Record<string, unknown>, group: index });
    });
    checkToolPairing(messages, file, (index) => `message ${index}`);
    const conversation: ReadConversation = { id: wrapped && typeof document.id === 'string' ? document.id : 'conversation', messages, sources };
    return [conversation];
  },
  write(document, conversations, sources) {
    const messages = (conversations[0]?.messages ?? []).map((message) => writeOllamaMessage(message, sources[0]?.get(message.id)));
    return isRecord(document) ? { ...document, messages } : messages;
  },
};

export function derivedCallId(messageIndex: number, callIndex: number): string {
  return `ollama-${messageIndex}-${callIndex}`;
}

function readOllamaMessage(
  value: unknown,
  index: number,
  file: string,
  unanswered: UnansweredCalls,
  idOf: (sourceId: unknown, index: number) => string,
): Message {
  const position = `message ${index}`;
  const source = expectRecord(value, file, position, 'a message');
  const role = ROLES.find((candidate) => candidate === source.role);
  if (!role) throw invalidTranscript(file, position, `unknown role ${JSON.stringify(source.role)} (expected one of: ${ROLES.join(', ')})`);
  const content = source.content === undefined || source.content === null ? '' : expectString(source.content, file, position, 'content');
  const parts: MessagePart[] = [];
  if (role === 'tool') {
    const name = source.tool_name === null ? undefined : optionalString(source.tool_name, file, position, 'tool_name');
    const call = unanswered.answer(name);
    if (!call) throw invalidTranscript(file, position, `tool result${name ? ` of "${name}"` : ''} has no earlier tool call`);
    parts.push({ type: 'tool-result', callId: call.callId, output: content, ...(name === undefined ? {} : { name }) });
  } else {
    const thinking = source.thinking === null ? undefined : optionalString(source.thinking, file, position, 'thinking');
    if (thinking !== undefined) parts.push({ type: 'reasoning', text: thinking });
    if (typeof source.content === 'string') parts.push({ type: 'text', text: content });
    if (source.images !== undefined && source.images !== null) {
      expectArray(source.images, file, position, 'images').forEach((image, imageIndex) => {
        const data = expectString(image, file, `${position}, image ${imageIndex}`, 'an image');
        parts.push({ type: 'file', mediaType: imageMediaType(data), data });
      });
    }
    if (source.tool_calls !== undefined && source.tool_calls !== null) {
      expectArray(source.tool_calls, file, position, 'tool_calls').forEach((value, callIndex) => {
        const call = readToolCall(value, file, `${position}, tool call ${callIndex}`, derivedCallId(index, callIndex));
        parts.push(call);
        unanswered.add(call);
      });
    }
  }
  const metadata = Object.fromEntries(Object.entries(source).filter(([key, member]) => !MODEL_FIELDS.has(key) || isEmptyField(key, member)));
  return { id: idOf(source.id, index), role, parts, ...(Object.keys(metadata).length > 0 ? { metadata } : {}) };
}

/**
 * The calls no tool message has answered yet, in order. A tool message answers the earliest one
 * with its `tool_name` (the earliest of all without one); queues per name keep each answer O(1)
 * amortised, however many calls a message makes.
 */
class UnansweredCalls {
  private readonly calls: { readonly call: ToolCallPart; answered: boolean }[] = [];
  private readonly byName = new Map<string, { readonly entries: { readonly call: ToolCallPart; answered: boolean }[]; next: number }>();
  private next = 0;

  add(call: ToolCallPart): void {
    const entry = { call, answered: false };
    this.calls.push(entry);
    const queue = this.byName.get(call.name);
    if (queue) queue.entries.push(entry);
    else this.byName.set(call.name, { entries: [entry], next: 0 });
  }

  /** The earliest unanswered call named `name` (any name when undefined), now answered. */
  answer(name: string | undefined): ToolCallPart | undefined {
    const queue = name === undefined ? { entries: this.calls, next: this.next } : this.byName.get(name);
    if (!queue) return undefined;
    while (queue.next < queue.entries.length && queue.entries[queue.next]!.answered) queue.next += 1;
    if (name === undefined) this.next = queue.next;
    const entry = queue.entries[queue.next];
    if (!entry) return undefined;
    entry.answered = true;
    return entry.call;
  }
}

function readToolCall(value: unknown, file: string, position: string, fallbackId: string): ToolCallPart {
  const call = expectRecord(value, file, position, 'a tool call');
  const callFunction = expectRecord(call.function, file, position, 'function');
  const name = expectString(callFunction.name, file, position, 'function.name');
  const callId = typeof call.id === 'string' ? call.id : fallbackId;
  const args = callFunction.arguments;
  if (typeof args === 'string') return { type: 'tool-call', callId, name, input: args, rawInput: args };
  return { type: 'tool-call', callId, name, input: args ?? {} };
}

/** Ollama images are bare base64; the first bytes tell the type. */
function imageMediaType(data: string): string {
  if (data.startsWith('iVBOR')) return 'image/png';
  if (data.startsWith('/9j/')) return 'image/jpeg';
  if (data.startsWith('R0lG')) return 'image/gif';
  if (data.startsWith('UklG')) return 'image/webp';
  return 'image/*';
}

function writeOllamaMessage(message: Message, reference: SourceReference | undefined): Record<string, unknown> {
  const source = reference?.source;
  const written: Record<string, unknown> = { role: message.role };
  const reasoning = message.parts.filter((part) => part.type === 'reasoning');
  if (reasoning.length > 0) written.thinking = reasoning.map((part) => part.text).join('\n');
  const texts = message.parts.filter((part) => part.type === 'text').map((part) => part.text);
  const results = message.parts.filter((part) => part.type === 'tool-result');
  if (message.role === 'tool' && results.length > 0) {
    written.content = results.map((part) => part.output).join('\n');
    if (results[0]!.name !== undefined) written.tool_name = results[0]!.name;
  } else if (texts.length > 0 || !source || Object.hasOwn(source, 'content')) {
    written.content = texts.length === 0 && source?.content === null ? null : texts.join('\n');
  }
  const images = message.parts.filter((part) => part.type === 'file' && part.data !== undefined);
  if (images.length > 0) written.images = images.map((part) => (part.type === 'file' ? part.data : ''));
  const calls = message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
  if (calls.length > 0) {
    const sourceCalls = sourceCallsById(reference);
    written.tool_calls = calls.map((call) => writeToolCall(call, sourceCalls.get(call.callId)));
  }
  // Source fields come back only for messages that kept their id (new ones are written plainly);
  // fields written from the parts win over metadata, which may hold e.g. `images: null`.
  if (source) for (const [key, member] of Object.entries(message.metadata ?? {})) if (ownField(written, key) === undefined) setField(written, key, member);
  return orderLike(written, source);
}

/** The source's tool calls by their own id and by the id reading derived for them (the first call wins), for one lookup per written call. */
function sourceCallsById(reference: SourceReference | undefined): Map<string, Record<string, unknown>> {
  const byId = new Map<string, Record<string, unknown>>();
  const sourceCalls = Array.isArray(reference?.source.tool_calls) ? (reference.source.tool_calls as unknown[]) : [];
  sourceCalls.forEach((candidate, index) => {
    if (!isRecord(candidate)) return;
    for (const id of [typeof candidate.id === 'string' ? candidate.id : undefined, derivedCallId(reference!.group, index)]) {
      if (id !== undefined && !byId.has(id)) byId.set(id, candidate);
    }
  });
  return byId;
}

function writeToolCall(call: ToolCallPart, sourceCall: Record<string, unknown> | undefined): Record<string, unknown> {
  const sourceFunction = isRecord(sourceCall) ? sourceCall.function : undefined;
  const callFunction = orderLike(
    { ...(isRecord(sourceFunction) ? sourceFunction : {}), name: call.name, arguments: call.rawInput ?? call.input ?? {} },
    sourceFunction,
  );
  const withId = isRecord(sourceCall) && typeof sourceCall.id === 'string' ? { id: call.callId } : {};
  return orderLike({ ...(isRecord(sourceCall) ? sourceCall : {}), ...withId, function: callFunction }, sourceCall);
}

/** Marks only Ollama messages carry: `thinking`, `images`, `tool_name`, or object tool arguments without a call id. */
export function looksLikeOllama(document: unknown): boolean {
  if (isRecord(document) && (document.options !== undefined || document.keep_alive !== undefined)) return true;
  const messages = Array.isArray(document) ? document : isRecord(document) && Array.isArray(document.messages) ? document.messages : [];
  return messages.some(
    (message) =>
      isRecord(message) &&
      (typeof message.thinking === 'string' ||
        Array.isArray(message.images) ||
        typeof message.tool_name === 'string' ||
        (Array.isArray(message.tool_calls) &&
          message.tool_calls.some((call) => isRecord(call) && call.id === undefined && isRecord(call.function) && isRecord(call.function.arguments)))),
  );
}
