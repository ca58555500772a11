import { canonicalJson, canonicalMessage, type Message, type MessagePart } from '@ollm/core';
import type { PromptConversion } from './prompt-to-messages.js';
import type { AssistantPromptMessage, PromptMessage, PromptPart, ToolPromptMessage, UserPromptMessage } from './prompt-types.js';
import { rewrittenToolOutput } from './tool-output-text.js';

/**
 * Turns compacted ollm messages back into the AI SDK prompt they were read from (`conversion`).
 * A prompt message whose ollm messages all came back as they were read is returned as the very
 * object it was; one a stage changed keeps its role, provider options and every part left as it
 * was (the same objects), and a changed part keeps what it had (provider options, tool name, the
 * output's type where the new text still fits it). Messages a stage wrote (a digest standing for
 * dropped turns that took a new id, a note) become plain AI SDK messages.
 */
export function messagesToPrompt(messages: readonly Message[], conversion: PromptConversion): PromptMessage[] {
  const prompt: PromptMessage[] = [];
  let index = 0;
  while (index < messages.length) {
    const origin = conversion.origins.get(messages[index]!.id);
    if (origin === undefined) {
      const written = writtenMessage(messages[index]!, conversion);
      if (written !== undefined) prompt.push(written);
      index += 1;
      continue;
    }
    let end = index + 1;
    while (end < messages.length && conversion.origins.get(messages[end]!.id)?.source === origin.source) end += 1;
    prompt.push(rebuiltMessage(origin.source, messages.slice(index, end), conversion));
    index = end;
  }
  return prompt;
}

function sameMessage(output: Message, read: Message): boolean {
  return output === read || canonicalMessage(output) === canonicalMessage(read);
}

function samePart(output: MessagePart, read: MessagePart): boolean {
  return output === read || canonicalJson(output) === canonicalJson(read);
}

function rebuiltMessage(source: number, group: readonly Message[], conversion: PromptConversion): PromptMessage {
  const original = conversion.prompt[source]!;
  const ids = conversion.ids[source]!;
  if (
    group.length === ids.length &&
    group.every((message, position) => message.id === ids[position] && sameMessage(message, conversion.origins.get(message.id)!.message))
  ) {
    return original;
  }
  const parts = group.flatMap((message) => message.parts);
  if (original.role === 'system') return { ...original, content: parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n') };
  const content = mappedParts(parts, original.content, conversion.parts[source]!, conversion);
  switch (original.role) {
    case 'user':
      return { ...original, content: content.filter(isUserPart) };
    case 'assistant':
      return { ...original, content: content.filter(isAssistantPart) };
    case 'tool':
      return { ...original, content: content.filter(isToolPart) };
  }
}

/** Each output part as the original part it was read from (the same object when unchanged), or a new part. */
function mappedParts(parts: readonly MessagePart[], original: readonly PromptPart[], read: readonly MessagePart[], conversion: PromptConversion): PromptPart[] {
  const used = new Array<boolean>(read.length).fill(false);
  const find = (test: (candidate: MessagePart, position: number) => boolean): number =>
    read.findIndex((candidate, position) => !used[position] && test(candidate, position));
  return parts.map((part) => {
    let position = find((candidate) => candidate === part);
    if (position === -1 && (part.type === 'tool-call' || part.type === 'tool-result')) {
      position = find((candidate) => candidate.type === part.type && candidate.callId === part.callId);
    }
    if (position === -1) position = find((candidate) => samePart(part, candidate));
    // A text or reasoning a stage rewrote (a digest, a first sentence): it keeps the provider options of one it replaced.
    if (position === -1 && (part.type === 'text' || part.type === 'reasoning')) position = find((_candidate, at) => original[at]!.type === part.type);
    if (position === -1) return writtenPart(part, conversion);
    used[position] = true;
    return samePart(part, read[position]!) ? original[position]! : rewrittenPart(original[position]!, part, conversion);
  });
}

function rewrittenPart(original: PromptPart, part: MessagePart, conversion: PromptConversion): PromptPart {
  if ((original.type === 'text' || original.type === 'reasoning') && (part.type === 'text' || part.type === 'reasoning'))
    return { ...original, text: part.text };
  if (original.type === 'tool-call' && part.type === 'tool-call') return { ...original, input: callInput(part) };
  if (original.type === 'tool-result' && part.type === 'tool-result') return { ...original, output: rewrittenToolOutput(original.output, part.output) };
  // A file is dropped or kept, never edited.
  if (original.type === 'file' && part.type === 'file') return original;
  return writtenPart(part, conversion);
}

/** The arguments of a call a stage rewrote: its input when it is an object (fold keeps the keys), else its raw text. */
function callInput(part: Extract<MessagePart, { type: 'tool-call' }>): unknown {
  return part.input !== null && typeof part.input === 'object' ? part.input : (part.rawInput ?? part.input);
}

/** A part a stage wrote, as the AI SDK's. */
function writtenPart(part: MessagePart, conversion: PromptConversion): PromptPart {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return { type: part.type, text: part.text };
    case 'tool-call':
      return { type: 'tool-call', toolCallId: part.callId, toolName: part.name, input: callInput(part) };
    case 'tool-result':
      return {
        type: 'tool-result',
        toolCallId: part.callId,
        toolName: part.name ?? conversion.toolNames.get(part.callId) ?? 'unknown',
        output: { type: part.isError ? 'error-text' : 'text', value: part.output },
      };
    case 'file':
      return part.uri !== undefined && URL.canParse(part.uri)
        ? { type: 'file', mediaType: part.mediaType, data: new URL(part.uri), ...(part.name !== undefined ? { filename: part.name } : {}) }
        : { type: 'text', text: `[file ${part.name ?? part.uri ?? part.mediaType}]` };
  }
}

/** A message a stage wrote (no prompt message has its id); undefined when it holds nothing the role can carry. */
function writtenMessage(message: Message, conversion: PromptConversion): PromptMessage | undefined {
  if (message.role === 'system') return { role: 'system', content: message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n') };
  const parts = message.parts.map((part) => writtenPart(part, conversion));
  switch (message.role) {
    case 'user': {
      const content = parts.filter(isUserPart);
      return content.length > 0 ? { role: 'user', content } : undefined;
    }
    case 'assistant': {
      const content = parts.filter(isAssistantPart);
      return content.length > 0 ? { role: 'assistant', content } : undefined;
    }
    case 'tool': {
      const content = parts.filter(isToolPart);
      return content.length > 0 ? { role: 'tool', content } : undefined;
    }
  }
}

function isUserPart(part: PromptPart): part is UserPromptMessage['content'][number] {
  return part.type === 'text' || part.type === 'file';
}

function isAssistantPart(part: PromptPart): part is AssistantPromptMessage['content'][number] {
  return part.type !== 'tool-approval-response';
}

function isToolPart(part: PromptPart): part is ToolPromptMessage['content'][number] {
  return part.type === 'tool-result' || part.type === 'tool-approval-response';
}
