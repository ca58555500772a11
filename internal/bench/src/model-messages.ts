import type { AssistantContent, ModelMessage, ToolContent, UserContent } from 'ai';
import type { Message, MessagePart } from '@ollm/core';
import { originalFields } from './original-fields.js';

// ModelMessage has no id, name or raw tool arguments; they travel in providerOptions.ollm, which
// pruneMessages carries along (it spreads each message and part it keeps).
interface OllmOptions {
  id?: string;
  name?: string;
  rawInput?: string;
}

function ollm(options: OllmOptions): { providerOptions: { ollm: Record<string, string> } } {
  const entries = Object.entries(options).filter((entry): entry is [string, string] => entry[1] !== undefined);
  return { providerOptions: { ollm: Object.fromEntries(entries) } };
}

function ollmOf(value: { providerOptions?: Record<string, Record<string, unknown>> }): OllmOptions {
  return (value.providerOptions?.['ollm'] ?? {}) as OllmOptions;
}

function userContent(parts: readonly MessagePart[]): UserContent {
  return parts.flatMap((part): Exclude<UserContent, string> => {
    if (part.type === 'text') return [{ type: 'text', text: part.text }];
    if (part.type === 'file')
      return [
        { type: 'file', mediaType: part.mediaType, data: part.data ?? new URL(part.uri ?? 'about:blank'), ...(part.name ? { filename: part.name } : {}) },
      ];
    return [];
  });
}

/** ollm messages as AI SDK ModelMessages (what `generateText({ messages })` takes). */
export function toModelMessages(messages: readonly Message[]): ModelMessage[] {
  const toolNames = new Map<string, string>();
  return messages.map((message): ModelMessage => {
    const options = ollm({ id: message.id, name: message.name });
    if (message.role === 'system') {
      return { role: 'system', content: message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n'), ...options };
    }
    if (message.role === 'user') return { role: 'user', content: userContent(message.parts), ...options };
    if (message.role === 'assistant') {
      const content: Exclude<AssistantContent, string> = [];
      for (const part of message.parts) {
        if (part.type === 'text') content.push({ type: 'text', text: part.text });
        else if (part.type === 'reasoning') content.push({ type: 'reasoning', text: part.text });
        else if (part.type === 'tool-call') {
          toolNames.set(part.callId, part.name);
          content.push({ type: 'tool-call', toolCallId: part.callId, toolName: part.name, input: part.input, ...ollm({ rawInput: part.rawInput }) });
        } else if (part.type === 'file') content.push(...(userContent([part]) as Exclude<AssistantContent, string>));
      }
      return { role: 'assistant', content, ...options };
    }
    const content: ToolContent = message.parts.flatMap((part): ToolContent => {
      if (part.type !== 'tool-result') return [];
      return [
        {
          type: 'tool-result',
          toolCallId: part.callId,
          toolName: part.name ?? toolNames.get(part.callId) ?? '',
          output: { type: part.isError ? 'error-text' : 'text', value: part.output },
          ...ollm({ name: part.name }),
        },
      ];
    });
    return { role: 'tool', content, ...options };
  });
}

function fileBack(part: { mediaType: string; data: unknown; filename?: string }): MessagePart {
  const data = part.data instanceof URL ? { uri: part.data.href } : typeof part.data === 'string' ? { data: part.data } : {};
  return { type: 'file', mediaType: part.mediaType, ...data, ...(part.filename ? { name: part.filename } : {}) };
}

/** AI SDK ModelMessages back as ollm messages (timestamp, pinned and metadata from `originals`). */
export function fromModelMessages(messages: readonly ModelMessage[], originals: ReadonlyMap<string, Message>): Message[] {
  return messages.map((message): Message => {
    const { id = '', name } = ollmOf(message);
    const common = { id, ...(name ? { name } : {}), ...originalFields(originals, id) };
    if (message.role === 'system') return { ...common, role: 'system', parts: [{ type: 'text', text: message.content }] };
    const content = typeof message.content === 'string' ? [{ type: 'text' as const, text: message.content }] : message.content;
    const parts: MessagePart[] = [];
    for (const part of content) {
      if (part.type === 'text' || part.type === 'reasoning') parts.push({ type: part.type, text: part.text });
      else if (part.type === 'file') parts.push(fileBack(part));
      else if (part.type === 'tool-call') {
        const { rawInput } = ollmOf(part);
        parts.push({ type: 'tool-call', callId: part.toolCallId, name: part.toolName, input: part.input, ...(rawInput !== undefined ? { rawInput } : {}) });
      } else if (part.type === 'tool-result') {
        const output = part.output;
        const text = output.type === 'text' || output.type === 'error-text' ? output.value : JSON.stringify('value' in output ? output.value : output);
        const { name: resultName } = ollmOf(part);
        parts.push({
          type: 'tool-result',
          callId: part.toolCallId,
          output: text,
          ...(resultName ? { name: resultName } : {}),
          ...(output.type === 'error-text' || output.type === 'error-json' ? { isError: true } : {}),
        });
      }
    }
    return { ...common, role: message.role, parts };
  });
}
