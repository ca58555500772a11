import type { Message } from './message.js';
import type { MessagePart, ReasoningPart, TextPart, ToolCallPart, ToolResultPart } from './message-part.js';

export function textPart(text: string): TextPart {
  return { type: 'text', text };
}

/** The concatenated text parts of a message (no reasoning, no tool data). */
export function messageText(message: Message): string {
  return message.parts
    .filter((part): part is TextPart => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}

export function toolCalls(message: Message): ToolCallPart[] {
  return message.parts.filter((part): part is ToolCallPart => part.type === 'tool-call');
}

export function toolResults(message: Message): ToolResultPart[] {
  return message.parts.filter((part): part is ToolResultPart => part.type === 'tool-result');
}

export function reasoningParts(message: Message): ReasoningPart[] {
  return message.parts.filter((part): part is ReasoningPart => part.type === 'reasoning');
}

/** Returns a copy of `message` with new parts; id, role, timestamp and metadata are kept. */
export function withParts(message: Message, parts: readonly MessagePart[]): Message {
  return { ...message, parts };
}

/** A tool call's arguments as the model reads them: the source's raw string, else the JSON of `input`. */
export function toolCallArguments(part: ToolCallPart): string {
  return part.rawInput ?? JSON.stringify(part.input ?? null);
}

/** The text a model would see for one part, used for token counting and rendering. */
export function partText(part: MessagePart): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return part.text;
    case 'tool-call':
      return `${part.name} ${toolCallArguments(part)}`;
    case 'tool-result':
      return part.output;
    case 'file':
      return `[file ${part.name ?? part.uri ?? part.mediaType}]`;
  }
}

/** A compact plain-text rendering of a message, e.g. for summariser prompts and retention probes. */
export function renderMessage(message: Message): string {
  const body = message.parts.map((part) => {
    switch (part.type) {
      case 'tool-call':
        return `[tool call ${part.name}] ${toolCallArguments(part)}`;
      case 'tool-result':
        return `[tool result${part.isError ? ' (error)' : ''}] ${part.output}`;
      case 'reasoning':
        return `[reasoning] ${part.text}`;
      default:
        return partText(part);
    }
  });
  return `${message.role}: ${body.join('\n')}`;
}
