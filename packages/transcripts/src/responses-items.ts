import type { Message, MessagePart, ToolCallPart } from '@ollm/core';
import { invalidTranscript } from './validation/invalid-transcript.js';
import type { WireMessages } from './wire-format.js';

type Item = Record<string, unknown>;
const isRecord = (value: unknown): value is Item => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Item types whose call and output ollm reads as a tool call and its result. */
const CALLS: Readonly<Record<string, string>> = { function_call: 'function_call_output', custom_tool_call: 'custom_tool_call_output' };
const OUTPUTS = new Set(Object.values(CALLS));

function contentParts(content: unknown, label: string, position: string): MessagePart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw invalidTranscript(label, position, 'content must be a string or an array of parts');
  return content.map((part, index) => {
    if (!isRecord(part)) throw invalidTranscript(label, `${position}, part ${index}`, 'a content part must be an object');
    if ((part['type'] === 'input_text' || part['type'] === 'output_text' || part['type'] === 'text') && typeof part['text'] === 'string') {
      return { type: 'text', text: part['text'] };
    }
    if (part['type'] === 'input_image' || part['type'] === 'input_file') {
      return {
        type: 'file',
        mediaType: part['type'] === 'input_image' ? 'image/*' : 'application/octet-stream',
        ...(typeof part['image_url'] === 'string' ? { uri: part['image_url'] } : {}),
      };
    }
    throw invalidTranscript(label, `${position}, part ${index}`, `unknown content part type ${JSON.stringify(part['type'])}`);
  });
}

function callPart(item: Item, label: string, position: string): ToolCallPart {
  const callId = item['call_id'];
  const name = item['name'];
  if (typeof callId !== 'string' || typeof name !== 'string') throw invalidTranscript(label, position, `a ${String(item['type'])} needs a call_id and a name`);
  if (item['type'] === 'custom_tool_call') {
    const input = typeof item['input'] === 'string' ? item['input'] : '';
    return { type: 'tool-call', callId, name, input: { input } };
  }
  const raw = typeof item['arguments'] === 'string' ? item['arguments'] : '{}';
  let input: unknown = raw;
  try {
    input = JSON.parse(raw) as unknown;
  } catch {
    // Arguments that are not JSON stay the string they were.
  }
  return { type: 'tool-call', callId, name, input, rawInput: raw };
}

interface Read {
  readonly message: Message;
  /** The items the message was read from, written back as they came while it is unchanged. */
  readonly items: readonly Item[];
}

/**
 * The `input` items of a stateless OpenAI Responses request (Codex's: `store: false`, no
 * `previous_response_id`) as ollm messages: a message item is a message (`developer` a system
 * message); consecutive `function_call` / `custom_tool_call` items are one assistant message with
 * their calls; each `*_output` a tool message; a `reasoning` item an assistant message with its
 * summary as reasoning. Other item types are `InvalidTranscriptError`s (the proxy then sends the
 * request as it came). Written back, an unchanged message gives its items byte for byte; a changed
 * or new one is written plainly.
 */
export function readResponsesItems(values: readonly unknown[], label: string): WireMessages {
  const read: Read[] = [];
  values.forEach((value, index) => {
    const position = `input item ${index}`;
    if (!isRecord(value)) throw invalidTranscript(label, position, 'an input item must be an object');
    const type = value['type'] ?? (value['role'] !== undefined ? 'message' : undefined);
    const id = `i${index}`;
    if (type === 'message') {
      const role = value['role'];
      if (role !== 'user' && role !== 'assistant' && role !== 'system' && role !== 'developer') {
        throw invalidTranscript(label, position, `unknown role ${JSON.stringify(role)} (expected one of: user, assistant, system, developer)`);
      }
      read.push({ message: { id, role: role === 'developer' ? 'system' : role, parts: contentParts(value['content'], label, position) }, items: [value] });
      return;
    }
    if (typeof type === 'string' && type in CALLS) {
      const previous = read.at(-1);
      const part = callPart(value, label, position);
      // Parallel calls: one assistant message, as chat APIs carry them.
      if (previous && previous.items.every((item) => typeof item['type'] === 'string' && item['type'] in CALLS)) {
        read[read.length - 1] = { message: { ...previous.message, parts: [...previous.message.parts, part] }, items: [...previous.items, value] };
      } else read.push({ message: { id, role: 'assistant', parts: [part] }, items: [value] });
      return;
    }
    if (typeof type === 'string' && OUTPUTS.has(type)) {
      const callId = value['call_id'];
      if (typeof callId !== 'string') throw invalidTranscript(label, position, `a ${type} needs a call_id`);
      const output = typeof value['output'] === 'string' ? value['output'] : JSON.stringify(value['output'] ?? '');
      read.push({ message: { id, role: 'tool', parts: [{ type: 'tool-result', callId, output }] }, items: [value] });
      return;
    }
    if (type === 'reasoning') {
      const summary = Array.isArray(value['summary']) ? value['summary'] : [];
      const text = summary.map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : '')).join('\n');
      read.push({ message: { id, role: 'assistant', parts: [{ type: 'reasoning', text }] }, items: [value] });
      return;
    }
    throw invalidTranscript(label, position, `input item type ${JSON.stringify(type)} is not read by ollm`);
  });
  const byId = new Map(read.map((entry) => [entry.message.id, entry]));
  return {
    messages: read.map((entry) => entry.message),
    write: (messages) => messages.flatMap((message) => writeMessage(message, byId.get(message.id))),
  };
}

function sameParts(a: readonly MessagePart[], b: readonly MessagePart[]): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function writeMessage(message: Message, source: Read | undefined): Item[] {
  if (source && sameParts(message.parts, source.message.parts)) return [...source.items];
  const sourceType = (callId: string) => source?.items.find((item) => item['call_id'] === callId)?.['type'];
  const text = message.parts.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  if (message.role === 'tool') {
    return message.parts.flatMap((part) => {
      if (part.type !== 'tool-result') return [];
      const type = sourceType(part.callId) === 'custom_tool_call_output' ? 'custom_tool_call_output' : 'function_call_output';
      return [{ type, call_id: part.callId, output: part.output }];
    });
  }
  if (message.role !== 'assistant') {
    const role = source?.items[0]?.['role'] === 'developer' ? 'developer' : message.role;
    return [{ type: 'message', role, content: [{ type: 'input_text', text }] }];
  }
  const items: Item[] = [];
  if (text !== '') items.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] });
  for (const part of message.parts) {
    if (part.type !== 'tool-call') continue;
    if (sourceType(part.callId) === 'custom_tool_call') {
      const input = (part.input as { input?: unknown } | null)?.input;
      items.push({ type: 'custom_tool_call', call_id: part.callId, name: part.name, input: typeof input === 'string' ? input : '' });
    } else {
      items.push({ type: 'function_call', call_id: part.callId, name: part.name, arguments: part.rawInput ?? JSON.stringify(part.input ?? {}) });
    }
  }
  return items;
}
