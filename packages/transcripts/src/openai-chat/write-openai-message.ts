import type { Message, MessagePart, ToolCallPart } from '@ollm/core';
import { isRecord, orderLike } from '../json/order-like.js';
import { ownField, setField } from '../json/own-fields.js';
import { reuseUnchangedBlocks } from '../json/reuse-unchanged-blocks.js';
import { readOpenAIContentPart, writeOpenAIContentPart } from './openai-content.js';

/** Metadata keys ollm itself sets; they are not source fields. */
const OLLM_METADATA_KEYS = new Set(['sourceRole']);

/**
 * One message as an OpenAI chat message. `source` is the object the message was read from, when
 * it kept its id: its key order, content layout and tool-call extras are kept.
 */
export function writeOpenAIMessage(message: Message, source?: Record<string, unknown>): Record<string, unknown> {
  const metadata = message.metadata ?? {};
  const role = typeof metadata.sourceRole === 'string' ? metadata.sourceRole : message.role;
  const written: Record<string, unknown> = { role };
  const reasoning = message.parts.filter((part) => part.type === 'reasoning');
  if (reasoning.length > 0) written.reasoning_content = reasoning.map((part) => part.text).join('\n');

  if (message.role === 'tool') {
    const results = message.parts.filter((part) => part.type === 'tool-result');
    const output = results.length > 0 ? results.map((part) => part.output).join('\n') : textOf(message.parts);
    const first = results[0];
    if (first) written.tool_call_id = first.callId;
    if (first?.name !== undefined) written.name = first.name;
    written.content = writeToolContent(output, source?.content);
  } else {
    written.content = writeContent(message, source);
    const calls = message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
    if (calls.length > 0) {
      const sourceCalls = sourceCallsById(source);
      written.tool_calls = calls.map((call) => writeToolCall(call, sourceCalls.get(call.callId)));
    }
    if (message.name !== undefined) written.name = message.name;
  }
  // Source fields come back only for messages that kept their id; new messages are written plainly.
  // Fields written from the parts win over metadata (which may hold e.g. `tool_calls: null`).
  if (source) {
    for (const [key, member] of Object.entries(metadata))
      if (!OLLM_METADATA_KEYS.has(key) && ownField(written, key) === undefined) setField(written, key, member);
  }
  return orderLike(written, source);
}

function textOf(parts: readonly MessagePart[]): string {
  return parts
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

function writeContent(message: Message, source: Record<string, unknown> | undefined): unknown {
  const contentParts = message.parts.filter((part) => part.type === 'text' || part.type === 'file');
  const sourceContent = source?.content;
  if (Array.isArray(sourceContent) || contentParts.some((part) => part.type === 'file')) {
    const written = contentParts.map((part) => ({ part, block: writeOpenAIContentPart(part) }));
    return reuseUnchangedBlocks(written, Array.isArray(sourceContent) ? sourceContent : [], (block) => readOpenAIContentPart(block, '', ''));
  }
  if (contentParts.length > 0) return textOf(contentParts);
  if (source && Object.hasOwn(source, 'content')) return sourceContent === null ? null : '';
  // A source that had no content (an assistant turn that only called tools) stays without it while
  // it still calls tools; with nothing left it gets `''`, since a message without content does not read.
  const stillReadable = message.parts.some((part) => part.type === 'tool-call' || part.type === 'reasoning') || isRecord(source?.function_call);
  if (source && stillReadable) return undefined;
  if (source) return '';
  // OpenAI's own shape: an assistant turn that only calls tools has `content: null`.
  return message.parts.some((part) => part.type === 'tool-call') ? null : '';
}

function writeToolContent(output: string, sourceContent: unknown): unknown {
  if (Array.isArray(sourceContent)) {
    return reuseUnchangedBlocks([{ part: { type: 'text', text: output }, block: { type: 'text', text: output } }], sourceContent, (block) =>
      readOpenAIContentPart(block, '', ''),
    );
  }
  if (sourceContent === null && output === '') return null;
  return output;
}

/** The source's tool calls by id (the first of each id), so each written call finds its own at once. */
function sourceCallsById(source: Record<string, unknown> | undefined): Map<string, Record<string, unknown>> {
  const byId = new Map<string, Record<string, unknown>>();
  if (Array.isArray(source?.tool_calls)) {
    for (const candidate of source.tool_calls as unknown[]) {
      if (isRecord(candidate) && typeof candidate.id === 'string' && !byId.has(candidate.id)) byId.set(candidate.id, candidate);
    }
  }
  return byId;
}

function writeToolCall(call: ToolCallPart, sourceCall: Record<string, unknown> | undefined): Record<string, unknown> {
  const sourceFunction = isRecord(sourceCall) ? sourceCall.function : undefined;
  // Some servers send arguments as an object rather than a JSON string; write them back the same way.
  const objectArguments = isRecord(sourceFunction) && sourceFunction.arguments !== undefined && typeof sourceFunction.arguments !== 'string';
  const callFunction = orderLike(
    {
      ...(isRecord(sourceFunction) ? sourceFunction : {}),
      name: call.name,
      arguments: call.rawInput ?? (objectArguments ? call.input : JSON.stringify(call.input ?? {})),
    },
    sourceFunction,
  );
  const type = isRecord(sourceCall) && !Object.hasOwn(sourceCall, 'type') ? {} : { type: 'function' };
  return orderLike({ ...(isRecord(sourceCall) ? sourceCall : {}), id: call.callId, ...type, function: callFunction }, sourceCall);
}
