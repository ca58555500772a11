import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { toolCallArguments, type FilePart, type Message, type MessagePart, type ToolCallPart } from '@ollm/core';
import { originalFields } from './original-fields.js';

type ContentBlock = { type: 'text'; text: string } | { type: 'file'; mimeType: string; url?: string; data?: string; name?: string };

// Separates the parts of one tool message that became several ToolMessages: `<id>::<k>`.
const PART_SEPARATOR = '::';

/** A single text part is a string, as LangChain users write it; anything else is content blocks. */
function contentOf(parts: readonly MessagePart[]): string | ContentBlock[] {
  const blocks = parts.filter((part) => part.type === 'text' || part.type === 'file');
  if (blocks.length === 1 && blocks[0]!.type === 'text') return blocks[0]!.text;
  return blocks.map((part) =>
    part.type === 'text'
      ? { type: 'text' as const, text: part.text }
      : {
          type: 'file' as const,
          mimeType: part.mediaType,
          ...(part.uri ? { url: part.uri } : {}),
          ...(part.data ? { data: part.data } : {}),
          ...(part.name ? { name: part.name } : {}),
        },
  );
}

function partsOf(content: BaseMessage['content']): MessagePart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return (content as unknown as ContentBlock[]).map((block): MessagePart => {
    if (block.type === 'text') return { type: 'text', text: block.text };
    const file: FilePart = {
      type: 'file',
      mediaType: block.mimeType,
      ...(block.url ? { uri: block.url } : {}),
      ...(block.data ? { data: block.data } : {}),
      ...(block.name ? { name: block.name } : {}),
    };
    return file;
  });
}

/**
 * ollm messages as LangChain messages, the way ChatOpenAI represents a chat: tool calls parsed in
 * `tool_calls` and raw in `additional_kwargs.tool_calls`, reasoning in
 * `additional_kwargs.reasoning_content`, one ToolMessage per tool result. Ids are kept.
 */
export function toLangChainMessages(messages: readonly Message[]): BaseMessage[] {
  const converted: BaseMessage[] = [];
  for (const message of messages) {
    const name = message.name ? { name: message.name } : {};
    if (message.role === 'system') {
      converted.push(new SystemMessage({ id: message.id, content: contentOf(message.parts), ...name }));
    } else if (message.role === 'user') {
      converted.push(new HumanMessage({ id: message.id, content: contentOf(message.parts), ...name }));
    } else if (message.role === 'assistant') {
      const calls = message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
      const reasoning = message.parts.filter((part) => part.type === 'reasoning').map((part) => part.text);
      converted.push(
        new AIMessage({
          id: message.id,
          content: contentOf(message.parts),
          ...name,
          tool_calls: calls.map((call) => ({ id: call.callId, name: call.name, args: argumentsObject(call.input), type: 'tool_call' as const })),
          additional_kwargs: {
            ...(reasoning.length > 0 ? { reasoning_content: reasoning.join('\n') } : {}),
            ...(calls.length > 0
              ? {
                  tool_calls: calls.map((call) => ({
                    id: call.callId,
                    type: 'function' as const,
                    function: { name: call.name, arguments: toolCallArguments(call) },
                  })),
                }
              : {}),
          },
        }),
      );
    } else {
      const results = message.parts.filter((part) => part.type === 'tool-result');
      results.forEach((part, index) => {
        converted.push(
          new ToolMessage({
            id: results.length === 1 ? message.id : `${message.id}${PART_SEPARATOR}${index}`,
            content: part.output,
            tool_call_id: part.callId,
            ...(part.name ? { name: part.name } : {}),
            ...(part.isError ? { status: 'error' as const } : {}),
          }),
        );
      });
    }
  }
  return converted;
}

/** LangChain's `args` must be an object; arguments that are not a JSON object travel raw only. */
function argumentsObject(input: unknown): Record<string, unknown> {
  return input !== null && typeof input === 'object' && !Array.isArray(input) ? (input as Record<string, unknown>) : {};
}

interface RawToolCall {
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** One LangChain message back as an ollm message (timestamp, pinned and metadata from `originals`). */
export function fromLangChainMessage(message: BaseMessage, originals: ReadonlyMap<string, Message>): Message {
  const id = message.id ?? '';
  const name = message.name ? { name: message.name } : {};
  const type = message.getType();
  if (type === 'system' || type === 'human') {
    return { id, role: type === 'system' ? 'system' : 'user', parts: partsOf(message.content), ...name, ...originalFields(originals, id) };
  }
  if (type === 'ai') {
    const ai = message as AIMessage;
    const raw = (ai.additional_kwargs['tool_calls'] ?? []) as RawToolCall[];
    const reasoning = ai.additional_kwargs['reasoning_content'];
    const parts: MessagePart[] = [
      ...(typeof reasoning === 'string' ? [{ type: 'reasoning' as const, text: reasoning }] : []),
      ...partsOf(ai.content),
      ...(ai.tool_calls ?? []).map((call): ToolCallPart => {
        const rawInput = raw.find((entry) => entry.id === call.id)?.function?.arguments;
        return { type: 'tool-call', callId: call.id ?? '', name: call.name, input: call.args, ...(rawInput !== undefined ? { rawInput } : {}) };
      }),
    ];
    return { id, role: 'assistant', parts, ...name, ...originalFields(originals, id) };
  }
  if (type === 'tool') {
    const tool = message as ToolMessage;
    const baseId = id.split(PART_SEPARATOR)[0]!;
    const output = typeof tool.content === 'string' ? tool.content : JSON.stringify(tool.content);
    return {
      id: baseId,
      role: 'tool',
      parts: [
        {
          type: 'tool-result',
          callId: tool.tool_call_id,
          output,
          ...(tool.name ? { name: tool.name } : {}),
          ...(tool.status === 'error' ? { isError: true } : {}),
        },
      ],
      ...originalFields(originals, baseId),
    };
  }
  throw new Error(`Unexpected LangChain message type "${type}".`);
}

/** LangChain messages back as ollm messages; tool results split from one message are merged again. */
export function fromLangChainMessages(messages: readonly BaseMessage[], originals: ReadonlyMap<string, Message>): Message[] {
  const converted: Message[] = [];
  for (const message of messages) {
    const next = fromLangChainMessage(message, originals);
    const previous = converted[converted.length - 1];
    if (previous && previous.role === 'tool' && next.role === 'tool' && previous.id === next.id) {
      converted[converted.length - 1] = { ...previous, parts: [...previous.parts, ...next.parts] };
    } else {
      converted.push(next);
    }
  }
  return converted;
}
