import { createHash } from 'node:crypto';
import type { FilePart, Message, MessagePart } from '@ollm/core';
import type { PromptFilePart, Prompt, PromptMessage, PromptPart, PromptToolCallPart, PromptToolResultPart } from './prompt-types.js';
import { toolOutputText } from './tool-output-text.js';

/** Where one ollm message came from. */
export interface MessageOrigin {
  /** The index of the prompt message it was read from. */
  readonly source: number;
  /** The ollm message as it was read (before any compaction). */
  readonly message: Message;
}

/** An AI SDK prompt as ollm messages, with what turns them back. */
export interface PromptConversion {
  readonly prompt: Prompt;
  readonly messages: readonly Message[];
  /** `sourceKeys[k]`: the JSON of what ollm message k was read from (provider options included), for the compactor's reuse keys. */
  readonly sourceKeys: readonly string[];
  /** By ollm message id. */
  readonly origins: ReadonlyMap<string, MessageOrigin>;
  /** For each prompt message: the ollm parts its content became, one per content part, in order (a system message: its one text part). */
  readonly parts: readonly (readonly MessagePart[])[];
  /** For each prompt message: the ids of the ollm messages it became, in order. */
  readonly ids: readonly (readonly string[])[];
  /** Tool names by call id, for a result a compaction stage wrote without one. */
  readonly toolNames: ReadonlyMap<string, string>;
}

/**
 * Reads an AI SDK prompt as ollm messages, one per prompt message, with positional ids (`m<index>`)
 * so a compaction cached from an earlier step and this step's tail never collide; a tool message
 * with several results becomes one ollm message per result (`m<index>.<k>`), as providers send
 * them. Parts ollm has no kind for are rendered as text for counting, and their message is
 * pinned so no stage edits or drops its turn: calls the provider ran itself and their results
 * (in an assistant message), and tool approval responses.
 */
export function promptToMessages(prompt: Prompt): PromptConversion {
  const messages: Message[] = [];
  const sourceKeys: string[] = [];
  const origins = new Map<string, MessageOrigin>();
  const parts: MessagePart[][] = [];
  const ids: string[][] = [];
  const toolNames = new Map<string, string>();
  const add = (source: number, message: Message, key: string): void => {
    messages.push(message);
    sourceKeys.push(key);
    origins.set(message.id, { source, message });
    ids[source]!.push(message.id);
  };
  for (const [index, message] of prompt.entries()) {
    ids.push([]);
    const id = `m${index}`;
    if (message.role === 'system') {
      const text: MessagePart = { type: 'text', text: message.content };
      parts.push([text]);
      add(index, { id, role: 'system', parts: [text] }, sourceKey(message));
      continue;
    }
    const converted = message.content.map((part) => partToOllm(part, message.role));
    parts.push(converted);
    for (const part of message.content) {
      if (part.type === 'tool-call') toolNames.set(part.toolCallId, part.toolName);
    }
    const pinned = message.content.some(
      (part) =>
        (part.type === 'tool-call' && part.providerExecuted === true) ||
        part.type === 'tool-approval-response' ||
        (message.role === 'assistant' && part.type === 'tool-result'),
    );
    if (message.role === 'tool' && !pinned && converted.length > 1) {
      for (const [position, part] of converted.entries()) {
        add(
          index,
          { id: `${id}.${position}`, role: 'tool', parts: [part] },
          sourceKey({ providerOptions: message.providerOptions, part: message.content[position] }),
        );
      }
      continue;
    }
    add(index, { id, role: message.role, parts: converted, ...(pinned ? { pinned: true } : {}) }, sourceKey(message));
  }
  return { prompt, messages, sourceKeys, origins, parts, ids, toolNames };
}

function partToOllm(part: PromptPart, role: PromptMessage['role']): MessagePart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'reasoning':
      return { type: 'reasoning', text: part.text };
    case 'file':
      return filePart(part);
    case 'tool-call':
      return part.providerExecuted === true
        ? { type: 'text', text: `[provider tool call ${part.toolName}] ${JSON.stringify(part.input ?? null)}` }
        : toolCallPart(part);
    case 'tool-result':
      // In an assistant message: the result of a call the provider ran, rendered for counting.
      return role === 'assistant'
        ? { type: 'text', text: `[provider tool result ${part.toolName}] ${toolOutputText(part.output).text}` }
        : toolResultPart(part);
    case 'tool-approval-response':
      return { type: 'text', text: `[tool approval ${part.approvalId}: ${part.approved ? 'approved' : 'denied'}${part.reason ? `, ${part.reason}` : ''}]` };
  }
}

function toolCallPart(part: PromptToolCallPart): MessagePart {
  return { type: 'tool-call', callId: part.toolCallId, name: part.toolName, input: part.input };
}

function toolResultPart(part: PromptToolResultPart): MessagePart {
  const { text, isError } = toolOutputText(part.output);
  return { type: 'tool-result', callId: part.toolCallId, name: part.toolName, output: text, ...(isError ? { isError } : {}) };
}

function filePart(part: PromptFilePart): FilePart {
  const uri = part.data instanceof URL ? (part.originalUrl ?? part.data.href) : undefined;
  return { type: 'file', mediaType: part.mediaType, ...(uri !== undefined ? { uri } : {}), ...(part.filename !== undefined ? { name: part.filename } : {}) };
}

const byteDigests = new WeakMap<Uint8Array, string>();

/** JSON of a prompt message or part, bytes as their sha256 (a megabyte image is not written out on every step). */
function sourceKey(value: PromptMessage | { providerOptions: unknown; part: unknown }): string {
  return JSON.stringify(value, (_key, member: unknown) => {
    if (!(member instanceof Uint8Array)) return member;
    let digest = byteDigests.get(member);
    if (digest === undefined) {
      digest = createHash('sha256').update(member).digest('hex');
      byteDigests.set(member, digest);
    }
    return { bytes: digest };
  });
}
