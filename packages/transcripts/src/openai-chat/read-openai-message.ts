import type { Message, MessagePart, MessageRole } from '@ollm/core';
import { nestsDeeperThan } from '@ollm/core';
import { MAX_JSON_NESTING } from '../json/json-nesting.js';
import { isRecord } from '../json/order-like.js';
import { setField } from '../json/own-fields.js';
import { invalidTranscript } from '../validation/invalid-transcript.js';
import { describeType, expectArray, expectRecord, expectString } from '../validation/expect.js';
import { readOpenAIContentPart } from './openai-content.js';

/** Source roles of OpenAI chat messages and the message role each becomes. */
export const OPENAI_ROLES: Readonly<Record<string, MessageRole>> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
};

/** Fields the message model carries, by role; every other field of a source message goes to `metadata`. */
const MESSAGE_FIELDS = new Set(['role', 'content', 'name', 'tool_calls', 'reasoning_content']);
const TOOL_FIELDS = new Set(['role', 'content', 'name', 'tool_call_id', 'reasoning_content']);

/**
 * `null` or `[]` in an optional field (`tool_calls: null`, `name: null`, as SDK dumps write them)
 * carries nothing for the model; it is kept in `metadata` so the file is written back as it was.
 */
export function isEmptyField(key: string, value: unknown): boolean {
  return key !== 'role' && key !== 'content' && (value === null || (Array.isArray(value) && value.length === 0));
}

export interface ReadOpenAIMessageOptions {
  readonly file: string;
  readonly position: string;
  readonly id: string;
  /** Roles beyond the standard ones (SWE-agent `exit`). */
  readonly roles?: Readonly<Record<string, MessageRole>>;
  /**
   * The call id a tool message answers, where a format keeps it elsewhere than `tool_call_id`
   * (classic SWE-agent: `tool_call_ids: [id]`). Undefined: read `tool_call_id`.
   */
  readonly toolCallIdOf?: (source: Record<string, unknown>) => unknown;
}

/** One OpenAI chat message (also the message shape of SWE-agent and tau-bench) as a message. */
export function readOpenAIMessage(value: unknown, options: ReadOpenAIMessageOptions): Message {
  const { file, position, id } = options;
  const source = expectRecord(value, file, position, 'a message');
  const sourceRole = source.role;
  const role = typeof sourceRole === 'string' ? (options.roles?.[sourceRole] ?? OPENAI_ROLES[sourceRole]) : undefined;
  if (role === undefined) {
    const known = [...Object.keys(OPENAI_ROLES), ...Object.keys(options.roles ?? {})].join(', ');
    throw invalidTranscript(file, position, `unknown role ${JSON.stringify(sourceRole)} (expected one of: ${known})`);
  }
  checkCarriesContent(source, role, file, position);

  const parts: MessagePart[] = [];
  if (source.reasoning_content !== undefined && !isEmptyField('reasoning_content', source.reasoning_content)) {
    parts.push({ type: 'reasoning', text: expectString(source.reasoning_content, file, position, 'reasoning_content') });
  }
  if (role === 'tool') {
    const callId = expectString(options.toolCallIdOf?.(source) ?? source.tool_call_id, file, position, 'tool_call_id of a tool message');
    const name = source.name === undefined || source.name === null ? undefined : expectString(source.name, file, position, 'name');
    const output = contentText(source.content, file, position);
    parts.push({ type: 'tool-result', callId, output, ...(name === undefined ? {} : { name }) });
  } else {
    parts.push(...readContent(source.content, file, position));
    if (source.tool_calls !== undefined && source.tool_calls !== null) {
      const calls = expectArray(source.tool_calls, file, position, 'tool_calls');
      calls.forEach((call, callIndex) => parts.push(readToolCall(call, file, `${position}, tool call ${callIndex}`)));
    }
  }

  const metadata: Record<string, unknown> = {};
  const modelFields = role === 'tool' ? TOOL_FIELDS : MESSAGE_FIELDS;
  for (const [key, member] of Object.entries(source)) if (!modelFields.has(key) || isEmptyField(key, member)) setField(metadata, key, member);
  if (sourceRole !== role) metadata.sourceRole = sourceRole;
  const name = role !== 'tool' && source.name !== undefined && source.name !== null ? expectString(source.name, file, position, 'name') : undefined;
  return {
    id,
    role,
    parts,
    ...(name === undefined ? {} : { name }),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
  };
}

/**
 * A chat message carries `content` (a string, parts or `null`); only an assistant turn that calls
 * tools (or carries `reasoning_content`) may leave it out. A message without it is some other
 * layout (e.g. ollm's own messages, which hold `parts`): reading it would give a message with
 * nothing in it, so it is an error.
 */
function checkCarriesContent(source: Record<string, unknown>, role: MessageRole, file: string, position: string): void {
  if ('content' in source) return;
  const callsTools = (Array.isArray(source.tool_calls) && source.tool_calls.length > 0) || isRecord(source.function_call);
  if (role === 'assistant' && (callsTools || typeof source.reasoning_content === 'string')) return;
  const fields = Object.keys(source).join(', ');
  const hint = Array.isArray(source.parts)
    ? '; messages with "parts" are ollm\'s own layout, read as ollm-session when the file keeps the session fields (sessionId, startTime, toolCalls)'
    : '';
  throw invalidTranscript(file, position, `a chat message must have "content" (this one has: ${fields})${hint}`);
}

function readContent(content: unknown, file: string, position: string): MessagePart[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (Array.isArray(content)) return content.map((block, index) => readOpenAIContentPart(block, file, `${position}, content part ${index}`));
  throw invalidTranscript(file, position, `content must be a string, an array or null, got ${describeType(content)}`);
}

function contentText(content: unknown, file: string, position: string): string {
  return readContent(content, file, position)
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n');
}

function readToolCall(value: unknown, file: string, position: string): MessagePart {
  const call = expectRecord(value, file, position, 'a tool call');
  const callFunction = expectRecord(call.function, file, position, 'function');
  const callId = expectString(call.id, file, position, 'id');
  const name = expectString(callFunction.name, file, position, 'function.name');
  const args = callFunction.arguments;
  if (isRecord(args)) return { type: 'tool-call', callId, name, input: args };
  const rawInput = expectString(args, file, position, 'function.arguments');
  return { type: 'tool-call', callId, name, input: parseArguments(rawInput), rawInput };
}

/**
 * Arguments are JSON when the model behaved; otherwise the string itself is the input. So is JSON
 * nested deeper than a transcript may be (MAX_JSON_NESTING): the string is kept, never its value.
 */
function parseArguments(rawInput: string): unknown {
  let input: unknown;
  try {
    input = JSON.parse(rawInput) as unknown;
  } catch {
    return rawInput;
  }
  return nestsDeeperThan(input, MAX_JSON_NESTING) ? rawInput : input;
}

export function isOpenAIMessageLike(value: unknown): boolean {
  return isRecord(value) && typeof value.role === 'string';
}
