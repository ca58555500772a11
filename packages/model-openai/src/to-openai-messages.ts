import type { ChatCompletionContentPart, ChatCompletionMessageFunctionToolCall, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { Message } from '@ollm/core';
import { partText } from '@ollm/core';

/**
 * Maps core messages to OpenAI chat messages: tool calls become `tool_calls` (arguments as the
 * JSON string the source carried), each tool result a `tool` message with its `tool_call_id`,
 * inline images `image_url` parts. Reasoning is not sent: chat completions takes none as input.
 */
export function toOpenAIMessages(messages: readonly Message[]): ChatCompletionMessageParam[] {
  const result: ChatCompletionMessageParam[] = [];
  for (const message of messages) {
    const texts: string[] = [];
    const images: ChatCompletionContentPart[] = [];
    const calls: ChatCompletionMessageFunctionToolCall[] = [];
    for (const part of message.parts) {
      switch (part.type) {
        case 'text':
          texts.push(part.text);
          break;
        case 'reasoning':
          break;
        case 'tool-call':
          calls.push({
            id: part.callId,
            type: 'function',
            function: { name: part.name, arguments: part.rawInput ?? JSON.stringify(part.input ?? {}) },
          });
          break;
        case 'tool-result':
          result.push({
            role: 'tool',
            tool_call_id: part.callId,
            content: part.isError ? `[error] ${part.output}` : part.output,
          });
          break;
        case 'file': {
          const url = part.data ? `data:${part.mediaType};base64,${part.data}` : part.uri;
          if (part.mediaType.startsWith('image/') && url) images.push({ type: 'image_url', image_url: { url } });
          else texts.push(partText(part));
          break;
        }
      }
    }
    const text = texts.join('\n');
    const name = message.name ? { name: message.name } : {};
    switch (message.role) {
      case 'system':
        result.push({ role: 'system', content: text, ...name });
        break;
      case 'user':
        result.push({
          role: 'user',
          content: images.length > 0 ? [...(text ? [{ type: 'text' as const, text }] : []), ...images] : text,
          ...name,
        });
        break;
      case 'assistant':
        result.push({
          role: 'assistant',
          content: text === '' && calls.length > 0 ? null : text,
          ...(calls.length > 0 ? { tool_calls: calls } : {}),
          ...name,
        });
        break;
      case 'tool':
        // Text beside tool results has no call to belong to; keep it as context for the model.
        if (text !== '') result.push({ role: 'user', content: text });
        break;
    }
  }
  return result;
}
