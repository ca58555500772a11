import type { AIMessage, BaseMessage, ToolMessage } from '@langchain/core/messages';
import type { FilePart, Message, MessagePart, MessageRole } from '@ollm/core';
import type { ContentBlockLike, ConvertedMessage, PartOrigin } from './part-origin.js';

/** Content blocks that restate one of the message's `tool_calls` (Anthropic `tool_use`, v1 `tool_call`, ...). */
const CALL_BLOCK_TYPES: ReadonlySet<string> = new Set(['tool_use', 'tool_call', 'functionCall', 'function_call']);

/** The ollm id of the message at `index` of a request: positional, so a cached prefix and a new tail never share one. */
export function positionalId(index: number): string {
  return `m${index}`;
}

/** The index a positional id names, or undefined for an id ollm made (a note of the window guard). */
export function indexOfPositionalId(id: string): number | undefined {
  const match = /^m(\d+)$/.exec(id);
  return match ? Number(match[1]) : undefined;
}

/** Messages whose key could not be written: each gets a key of its own. */
let unserialisable = 0;

/**
 * JSON of everything a LangChain message sends to a model (type, id, name, content, calls, kwargs,
 * metadata): equal keys mean equal messages, whatever object holds them, so a compaction made at
 * one step stands for the same prefix at the next.
 */
export function sourceKey(source: BaseMessage): string {
  const record = source as unknown as Record<string, unknown>;
  const fields = {
    type: source.type,
    id: source.id,
    name: source.name,
    content: source.content,
    tool_calls: record['tool_calls'],
    invalid_tool_calls: record['invalid_tool_calls'],
    tool_call_id: record['tool_call_id'],
    status: record['status'],
    role: record['role'],
    additional_kwargs: source.additional_kwargs,
    response_metadata: source.response_metadata,
  };
  try {
    return JSON.stringify(fields);
  } catch {
    // A kwarg JSON cannot hold (a BigInt, a cycle): this message then never matches a cached one.
    unserialisable += 1;
    return `unserialisable ${unserialisable}`;
  }
}

function isRecord(value: unknown): value is ContentBlockLike {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** An image, a file, or a block ollm has no part for: kept as it is, or dropped with its turn. */
function opaquePart(block: ContentBlockLike): FilePart {
  const type = typeof block['type'] === 'string' ? block['type'] : 'unknown';
  const mimeType = block['mimeType'] ?? block['mime_type'];
  const mediaType = typeof mimeType === 'string' ? mimeType : type === 'image_url' || type === 'image' ? 'image/*' : 'application/octet-stream';
  return { type: 'file', mediaType, name: `${type} block` };
}

/** The reasoning text of a `reasoning` (standard or OpenAI Responses summary) or `thinking` block, if it has one. */
function reasoningText(block: ContentBlockLike): string | undefined {
  if (block['type'] === 'thinking' && typeof block['thinking'] === 'string') return block['thinking'];
  if (block['type'] !== 'reasoning') return undefined;
  if (typeof block['reasoning'] === 'string') return block['reasoning'];
  const summary = block['summary'];
  if (!Array.isArray(summary)) return undefined;
  const texts = summary.flatMap((entry) => (isRecord(entry) && typeof entry['text'] === 'string' ? [entry['text']] : []));
  return texts.length > 0 ? texts.join('\n') : undefined;
}

interface PartsBuilder {
  readonly parts: MessagePart[];
  readonly origins: Map<MessagePart, PartOrigin>;
  readonly callBlocks: ContentBlockLike[];
}

function add(builder: PartsBuilder, part: MessagePart, origin: PartOrigin): void {
  builder.parts.push(part);
  builder.origins.set(part, origin);
}

function addContent(builder: PartsBuilder, content: BaseMessage['content'], callIds: ReadonlySet<string>): void {
  if (typeof content === 'string') {
    if (content.length > 0) add(builder, { type: 'text', text: content }, { kind: 'text-content' });
    return;
  }
  if (!Array.isArray(content)) return;
  for (const item of content as unknown[]) {
    if (typeof item === 'string') {
      // Not a block LangChain defines, but some hosts write plain strings into content arrays.
      if (item.length > 0) add(builder, { type: 'text', text: item }, { kind: 'block', block: { type: 'text', text: item } });
      continue;
    }
    if (!isRecord(item)) continue;
    const block = item;
    const type = block['type'];
    if (type === 'text' && typeof block['text'] === 'string') {
      add(builder, { type: 'text', text: block['text'] }, { kind: 'block', block });
      continue;
    }
    if (typeof type === 'string' && CALL_BLOCK_TYPES.has(type) && typeof block['id'] === 'string' && callIds.has(block['id'])) {
      builder.callBlocks.push(block);
      continue;
    }
    const reasoning = reasoningText(block);
    if (reasoning !== undefined) add(builder, { type: 'reasoning', text: reasoning }, { kind: 'block', block });
    else add(builder, opaquePart(block), { kind: 'block', block });
  }
}

function roleOfUnknown(source: BaseMessage): MessageRole {
  const role = (source as unknown as { role?: unknown }).role;
  if (role === 'system' || role === 'developer') return 'system';
  if (role === 'assistant' || role === 'ai') return 'assistant';
  return 'user';
}

/**
 * A LangChain message as an ollm message: content strings and text blocks become text parts,
 * `reasoning` / `thinking` blocks and `additional_kwargs.reasoning_content` reasoning parts,
 * `tool_calls` tool-call parts (arguments as ChatOpenAI sends them, `JSON.stringify(args)`), a
 * ToolMessage one tool-result part (`status: 'error'` is `isError`), images, files and blocks
 * ollm has no part for opaque file parts. A message of another type (a generic ChatMessage, a
 * FunctionMessage) is pinned: ollm keeps it as it is.
 */
export function toOllmMessage(source: BaseMessage, index: number, key: string, pinned: boolean): ConvertedMessage {
  const builder: PartsBuilder = { parts: [], origins: new Map(), callBlocks: [] };
  const id = positionalId(index);
  const name = typeof source.name === 'string' && source.name.length > 0 ? source.name : undefined;
  let role: MessageRole;
  let pin = pinned;
  switch (source.type) {
    case 'system':
      role = 'system';
      addContent(builder, source.content, new Set());
      break;
    case 'human':
      role = 'user';
      addContent(builder, source.content, new Set());
      break;
    case 'ai': {
      role = 'assistant';
      const ai = source as AIMessage;
      const calls = ai.tool_calls ?? [];
      const reasoning = ai.additional_kwargs?.['reasoning_content'];
      if (typeof reasoning === 'string' && reasoning.length > 0) add(builder, { type: 'reasoning', text: reasoning }, { kind: 'reasoning-content' });
      addContent(builder, ai.content, new Set(calls.flatMap((call) => (call.id ? [call.id] : []))));
      for (const call of calls) {
        const args = call.args ?? {};
        add(builder, { type: 'tool-call', callId: call.id ?? '', name: call.name, input: args, rawInput: JSON.stringify(args) }, { kind: 'tool-call', call });
      }
      break;
    }
    case 'tool': {
      role = 'tool';
      const tool = source as ToolMessage;
      const output =
        typeof tool.content === 'string'
          ? tool.content
          : (tool.content as unknown[])
              .flatMap((block) => (typeof block === 'string' ? [block] : isRecord(block) && typeof block['text'] === 'string' ? [block['text']] : []))
              .join('\n');
      add(
        builder,
        { type: 'tool-result', callId: tool.tool_call_id, output, ...(name ? { name } : {}), ...(tool.status === 'error' ? { isError: true } : {}) },
        { kind: 'tool-content' },
      );
      break;
    }
    default: {
      role = roleOfUnknown(source);
      pin = true;
      const text = source.text;
      builder.parts.push({ type: 'text', text: text.length > 0 ? text : `[${source.type} message]` });
    }
  }
  const message: Message = {
    id,
    role,
    parts: builder.parts,
    ...(name && role !== 'tool' ? { name } : {}),
    ...(pin ? { pinned: true } : {}),
  };
  return { message, source, index, key, origins: builder.origins, callBlocks: builder.callBlocks };
}
