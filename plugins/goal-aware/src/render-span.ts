import { escapeQuotedText, fitToTokens, isCheckpointMessage, toolCallArguments, type Message, type MessagePart, type TokenCounting } from '@ollm/core';

/** One rendered message of a span: its text for the prompt and its position in the input. */
export interface RenderedEntry {
  readonly position: number;
  readonly text: string;
}

/**
 * Renders positions `from..to` of the input for the summariser. Summarised messages show their
 * text, reasoning, tool calls and (capped) tool results; everything else is referenced by position
 * only — user text is never sent to be summarised, since user messages stay in the context anyway.
 * Each entry starts with its header (`[assistant message 3]`); the content after it is escaped
 * (`escapeQuotedText`), so no content can close the data block or pass for another message's header.
 */
export function renderSpan(
  messages: readonly Message[],
  span: ReadonlySet<number>,
  from: number,
  to: number,
  tokens: TokenCounting,
  maxToolResultTokens: number,
): RenderedEntry[] {
  const entries: RenderedEntry[] = [];
  for (let position = from; position <= to; position += 1) {
    const message = messages[position]!;
    const number = position + 1;
    if (isCheckpointMessage(message)) continue;
    if (!span.has(position)) {
      const what = message.pinned ? `pinned ${message.role}` : message.role;
      entries.push({ position, text: `[${what} message ${number} kept verbatim]` });
      continue;
    }
    const body = message.parts.map((part) => renderPart(part, tokens, maxToolResultTokens)).join('\n');
    entries.push({ position, text: `[${message.role} message ${number}]\n${escapeQuotedText(body)}` });
  }
  return entries;
}

function renderPart(part: MessagePart, tokens: TokenCounting, maxToolResultTokens: number): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'reasoning':
      return `(reasoning) ${part.text}`;
    case 'tool-call':
      return `(tool call ${part.name}) ${toolCallArguments(part)}`;
    case 'tool-result': {
      const output = fitToTokens(part.output, maxToolResultTokens, tokens.tokenizer);
      const cut = output.length < part.output.length ? ' (cut for the summariser; full output saved)' : '';
      return `(tool result${part.name ? ` ${part.name}` : ''}${part.isError ? ', error' : ''}${cut}) ${output}`;
    }
    case 'file':
      return `(file ${part.name ?? part.uri ?? part.mediaType})`;
  }
}
