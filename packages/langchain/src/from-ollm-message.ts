import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage, type ToolCall } from '@langchain/core/messages';
import type { Message, MessagePart, ToolCallPart } from '@ollm/core';
import type { ContentBlockLike, ConvertedMessage, PartOrigin } from './part-origin.js';

/** Where a part of an output message came from, when it is one the stages kept as it was. */
export type OriginOf = (part: MessagePart) => PartOrigin | undefined;

/** One item of the content being rebuilt: a block kept as it was, or new text. */
type ContentItem = { readonly block: ContentBlockLike } | { readonly text: string };

interface RawToolCall {
  readonly id?: string;
  readonly function?: { readonly name?: string; readonly arguments?: string };
}

/** LangChain wants `args` to be an object; arguments that are not one travel as `{}`. */
function argumentsObject(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

/**
 * The content of a rebuilt message: a string when the source's was one and only text is left
 * (`''` when nothing is), else blocks — the kept ones as they were, new text as text blocks,
 * then the call blocks of the calls still there.
 */
function contentOf(source: BaseMessage, items: readonly ContentItem[], callBlocks: readonly ContentBlockLike[]): string | ContentBlockLike[] {
  if (typeof source.content === 'string' && callBlocks.length === 0 && items.every((item) => 'text' in item)) {
    const texts = items.map((item) => (item as { text: string }).text);
    if (texts.length <= 1) return texts[0] ?? '';
  }
  const blocks = [...items.map((item) => ('block' in item ? item.block : { type: 'text', text: item.text })), ...callBlocks];
  return blocks.length > 0 ? blocks : '';
}

/** A new file part (no stage makes one, but a custom stage could) as a standard LangChain file block. */
function fileBlock(part: Extract<MessagePart, { type: 'file' }>): ContentBlockLike {
  return { type: 'file', mimeType: part.mediaType, ...(part.uri ? { url: part.uri } : {}), ...(part.data ? { data: part.data } : {}) };
}

/** The call block restating `call`, with the arguments it has now. */
function callBlockFor(block: ContentBlockLike, call: ToolCall, changed: boolean): ContentBlockLike {
  if (!changed) return block;
  return block['type'] === 'tool_use' ? { ...block, input: call.args } : { ...block, args: call.args };
}

function rebuildAssistant(output: Message, source: AIMessage, converted: ConvertedMessage, originOf: OriginOf): AIMessage {
  const items: ContentItem[] = [];
  const calls: ToolCall[] = [];
  const changedCalls = new Set<string>();
  let reasoningContent: string | undefined;
  const hadReasoningContent = typeof source.additional_kwargs?.['reasoning_content'] === 'string';
  for (const part of output.parts) {
    const origin = originOf(part);
    if (part.type === 'tool-call') {
      if (origin?.kind === 'tool-call') {
        calls.push(origin.call);
        continue;
      }
      const base = (source.tool_calls ?? []).find((call) => call.id === part.callId);
      calls.push({ ...(base ?? { type: 'tool_call' as const }), id: part.callId, name: part.name, args: argumentsObject(part.input) });
      changedCalls.add(part.callId);
    } else if (part.type === 'reasoning') {
      if (origin?.kind === 'reasoning-content' || (!origin && hadReasoningContent)) {
        reasoningContent = reasoningContent === undefined ? part.text : `${reasoningContent}\n${part.text}`;
      } else if (origin?.kind === 'block') items.push({ block: origin.block });
      else items.push({ block: { type: 'reasoning', reasoning: part.text } });
    } else if (part.type === 'text') {
      items.push(origin?.kind === 'block' ? { block: origin.block } : { text: part.text });
    } else if (part.type === 'file') {
      items.push({ block: origin?.kind === 'block' ? origin.block : fileBlock(part) });
    }
  }
  const kept = new Map(calls.map((call) => [call.id, call]));
  const callBlocks = converted.callBlocks.flatMap((block) => {
    const call = kept.get(block['id'] as string);
    return call ? [callBlockFor(block, call, changedCalls.has(call.id ?? ''))] : [];
  });
  const kwargs: Record<string, unknown> = { ...source.additional_kwargs };
  if (reasoningContent === undefined) delete kwargs['reasoning_content'];
  else kwargs['reasoning_content'] = reasoningContent;
  // ChatOpenAI sends `additional_kwargs.tool_calls` when `tool_calls` is empty: it must name only the calls left.
  if (Array.isArray(kwargs['tool_calls'])) {
    const raw = (kwargs['tool_calls'] as RawToolCall[]).flatMap((entry) => {
      const call = entry.id === undefined ? undefined : kept.get(entry.id);
      if (!call) return [];
      if (!changedCalls.has(entry.id!)) return [entry];
      return [{ ...entry, function: { ...entry.function, name: call.name, arguments: JSON.stringify(call.args) } }];
    });
    if (raw.length > 0) kwargs['tool_calls'] = raw;
    else delete kwargs['tool_calls'];
  }
  return new AIMessage({
    ...(source.id !== undefined ? { id: source.id } : {}),
    ...(source.name !== undefined ? { name: source.name } : {}),
    content: contentOf(source, items, callBlocks) as AIMessage['content'],
    tool_calls: calls,
    invalid_tool_calls: source.invalid_tool_calls ?? [],
    additional_kwargs: kwargs,
    response_metadata: source.response_metadata,
    ...(source.usage_metadata ? { usage_metadata: source.usage_metadata } : {}),
  });
}

function textItems(output: Message, originOf: OriginOf): ContentItem[] {
  return output.parts.flatMap((part): ContentItem[] => {
    const origin = originOf(part);
    if (origin?.kind === 'block') return [{ block: origin.block }];
    if (part.type === 'text' || part.type === 'reasoning') return [{ text: part.text }];
    if (part.type === 'file') return [{ block: fileBlock(part) }];
    return [];
  });
}

function rebuildTool(
  part: Extract<MessagePart, { type: 'tool-result' }>,
  source: ToolMessage | undefined,
  origin: PartOrigin | undefined,
  id: string | undefined,
): ToolMessage {
  const status = part.isError ? 'error' : source?.status === 'error' ? 'success' : source?.status;
  return new ToolMessage({
    ...(id !== undefined ? { id } : {}),
    ...(source?.name !== undefined ? { name: source.name } : part.name ? { name: part.name } : {}),
    content: origin?.kind === 'tool-content' && source ? source.content : part.output,
    tool_call_id: part.callId,
    ...(status ? { status } : {}),
    ...(source?.artifact !== undefined ? { artifact: source.artifact } : {}),
    ...(source?.metadata !== undefined ? { metadata: source.metadata } : {}),
    additional_kwargs: source?.additional_kwargs ?? {},
    response_metadata: source?.response_metadata ?? {},
  });
}

/** A message ollm made (a note of the window guard): a LangChain message of its role, with its id. */
function fromNewMessage(output: Message): BaseMessage[] {
  const text = output.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  if (output.role === 'system') return [new SystemMessage({ id: output.id, content: text })];
  if (output.role === 'user') return [new HumanMessage({ id: output.id, content: text })];
  if (output.role === 'tool') {
    return output.parts.flatMap((part) => (part.type === 'tool-result' ? [rebuildTool(part, undefined, undefined, undefined)] : []));
  }
  const calls = output.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
  return [
    new AIMessage({
      id: output.id,
      content: text,
      tool_calls: calls.map((call) => ({ type: 'tool_call' as const, id: call.callId, name: call.name, args: argumentsObject(call.input) })),
    }),
  ];
}

/**
 * An ollm message a stage changed, back as LangChain message(s): of the source's class, with its
 * id, name, kwargs and metadata, each part the stage kept as the block, call or kwarg it was, and
 * what changed as new text blocks or calls. What no longer applies goes: the raw OpenAI
 * `tool_calls` and call blocks of calls that were dropped, `reasoning_content` once reasoning is
 * removed, a ToolMessage's blocks once its output is a digest. `converted` is undefined for a
 * message ollm made itself.
 */
export function fromOllmMessage(output: Message, converted: ConvertedMessage | undefined, originOf: OriginOf): BaseMessage[] {
  if (!converted) return fromNewMessage(output);
  const source = converted.source;
  const common = {
    ...(source.id !== undefined ? { id: source.id } : {}),
    ...(source.name !== undefined ? { name: source.name } : {}),
    additional_kwargs: source.additional_kwargs,
    response_metadata: source.response_metadata,
  };
  switch (source.type) {
    case 'ai':
      return [rebuildAssistant(output, source as AIMessage, converted, originOf)];
    case 'human':
      return [new HumanMessage({ ...common, content: contentOf(source, textItems(output, originOf), []) as HumanMessage['content'] })];
    case 'system':
      return [new SystemMessage({ ...common, content: contentOf(source, textItems(output, originOf), []) as SystemMessage['content'] })];
    case 'tool': {
      const results = output.parts.filter((part) => part.type === 'tool-result');
      return results.map((part, position) => rebuildTool(part, source as ToolMessage, originOf(part), position === 0 ? source.id : undefined));
    }
    default:
      // Pinned: no stage changes it; should one, the source is what the model must see.
      return [source];
  }
}
