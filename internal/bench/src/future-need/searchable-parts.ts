import type { Message, ToolCallPart } from '@ollm/core';

/** Where in a message a piece of text sits. */
export type PartPlace = 'assistant-text' | 'tool-call' | 'tool-result' | 'system-or-user';

export interface SearchablePart {
  /** Position of the message in the list it came from. */
  readonly message: number;
  readonly place: PartPlace;
  readonly text: string;
}

function stringLeaves(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringLeaves(item, into);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) stringLeaves(item, into);
}

/**
 * A tool call's arguments as the model sees them, decoded from their JSON: the string values of
 * `rawInput` parsed (else of `input`), one per line, so `"cat a.py\\nsed …"` reads as two lines
 * and `\"` as a quote. Keys are the tool's schema, not the agent's words, and are left out; so is
 * the tool name (the model has it from the tool definitions). Arguments that are not JSON stay as written.
 */
export function decodedArguments(part: ToolCallPart): string {
  let value: unknown = part.input;
  if (part.rawInput !== undefined) {
    try {
      value = JSON.parse(part.rawInput) as unknown;
    } catch {
      value = part.rawInput;
    }
  }
  const leaves: string[] = [];
  stringLeaves(value, leaves);
  return leaves.join('\n');
}

/**
 * A literal `\n`, `\t` or `\r` (two characters: in the agent's Python strings, `print("\nDone")`)
 * reads as a space, so `\nGenerated` is not the word `nGenerated` and `\nget_foo` holds `get_foo`.
 * The same length, so positions do not move.
 */
export function withEscapesAsSpaces(text: string): string {
  return text.replace(/\\[ntr]/g, '  ');
}

/** The text of every part a model would read (text, reasoning, decoded tool-call arguments, tool results). */
export function searchableParts(messages: readonly Message[]): SearchablePart[] {
  const parts: SearchablePart[] = [];
  for (const [index, message] of messages.entries()) {
    const given = message.role === 'system' || message.role === 'user';
    for (const part of message.parts) {
      let place: PartPlace;
      let text: string;
      if (part.type === 'text' || part.type === 'reasoning') [place, text] = [message.role === 'tool' ? 'tool-result' : 'assistant-text', part.text];
      else if (part.type === 'tool-call') [place, text] = ['tool-call', decodedArguments(part)];
      else if (part.type === 'tool-result') [place, text] = ['tool-result', part.output];
      else continue;
      parts.push({ message: index, place: given ? 'system-or-user' : place, text: withEscapesAsSpaces(text) });
    }
  }
  return parts;
}

/** All of `messages`' searchable text, one part per line. */
export function searchableText(messages: readonly Message[]): string {
  return searchableParts(messages)
    .map((part) => part.text)
    .join('\n');
}
