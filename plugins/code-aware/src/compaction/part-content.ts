import type { MessagePart } from '@ollm/core';
import { commandOf } from '../views/find-heredoc-writes.js';

/** The text a step folds: a tool result's output, a text part, or a shell call's command. */
export function partContent(part: MessagePart): string {
  if (part.type === 'tool-result') return part.output;
  if (part.type === 'text') return part.text;
  if (part.type === 'tool-call') return commandOf(part) ?? '';
  return '';
}

export function withContent(part: MessagePart, content: string): MessagePart {
  if (part.type === 'tool-result') return { ...part, output: content };
  if (part.type === 'text') return { ...part, text: content };
  if (part.type === 'tool-call') {
    const input = { ...(part.input as Record<string, unknown>), command: content };
    // The raw arguments must say what the input now says, or a writer would restore the original.
    return { ...part, input, ...(part.rawInput === undefined ? {} : { rawInput: JSON.stringify(input) }) };
  }
  return part;
}

/** The `kind` a `removed` entry gets for each part type. */
export const REMOVED_KIND: Readonly<Record<MessagePart['type'], string>> = {
  'tool-result': 'tool-result',
  text: 'assistant-text',
  'tool-call': 'tool-call-input',
  reasoning: 'reasoning',
  file: 'file',
};
