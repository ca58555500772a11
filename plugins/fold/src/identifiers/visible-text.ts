import type { Message, MessagePart } from '@ollm/core';

/** String values of a tool call's arguments, decoded: a command reads as the shell sees it, not as escaped JSON. */
export function argumentStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) argumentStrings(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) argumentStrings(item, into);
}

/** The text of one part as a reader of the model's context sees it (tool arguments decoded). */
export function partVisibleText(part: MessagePart): string {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return part.text;
    case 'tool-result':
      return part.output;
    case 'tool-call': {
      const strings: string[] = [part.name];
      if (part.input !== undefined && part.input !== null) argumentStrings(part.input, strings);
      else if (part.rawInput !== undefined) strings.push(part.rawInput);
      return strings.join('\n');
    }
    case 'file':
      return part.name ?? part.uri ?? '';
  }
}

/** All the visible text of a message, parts joined by newlines. */
export function visibleText(message: Message): string {
  return message.parts.map(partVisibleText).join('\n');
}
