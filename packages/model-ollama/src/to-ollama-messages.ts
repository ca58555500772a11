import type { Message as OllamaMessage, ToolCall as OllamaToolCall } from 'ollama';
import type { Message, ToolCallPart } from '@ollm/core';
import { partText } from '@ollm/core';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Ollama wants tool arguments as an object; anything else is wrapped so nothing is lost. */
function toolArguments(part: ToolCallPart): Record<string, unknown> {
  if (isPlainObject(part.input)) return part.input;
  if (part.rawInput !== undefined) {
    try {
      const parsed: unknown = JSON.parse(part.rawInput);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // not JSON: fall through and keep it as text
    }
  }
  return { input: part.input ?? part.rawInput ?? null };
}

/**
 * Maps core messages to Ollama chat messages: reasoning becomes `thinking`, tool calls
 * `tool_calls`, each tool result its own `tool` message (named by `tool_name`), and inline
 * images `images`; other file references are kept as text so the model still sees them.
 */
export function toOllamaMessages(messages: readonly Message[]): OllamaMessage[] {
  const result: OllamaMessage[] = [];
  const toolNames = new Map<string, string>();
  for (const message of messages) {
    const texts: string[] = [];
    const thinking: string[] = [];
    const calls: OllamaToolCall[] = [];
    const images: string[] = [];
    for (const part of message.parts) {
      switch (part.type) {
        case 'text':
          texts.push(part.text);
          break;
        case 'reasoning':
          thinking.push(part.text);
          break;
        case 'tool-call':
          toolNames.set(part.callId, part.name);
          calls.push({ function: { name: part.name, arguments: toolArguments(part) } });
          break;
        case 'tool-result': {
          const toolName = part.name ?? toolNames.get(part.callId);
          result.push({
            role: 'tool',
            content: part.isError ? `[error] ${part.output}` : part.output,
            ...(toolName ? { tool_name: toolName } : {}),
          });
          break;
        }
        case 'file':
          if (part.mediaType.startsWith('image/') && part.data) images.push(part.data);
          else texts.push(partText(part));
          break;
      }
    }
    // A tool message whose content was all tool results has already been emitted.
    if (message.role === 'tool' && texts.length === 0) continue;
    result.push({
      role: message.role,
      content: texts.join('\n'),
      ...(thinking.length > 0 ? { thinking: thinking.join('\n') } : {}),
      ...(calls.length > 0 ? { tool_calls: calls } : {}),
      ...(images.length > 0 ? { images } : {}),
    });
  }
  return result;
}
