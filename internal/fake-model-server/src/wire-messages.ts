import type { Message, MessagePart, MessageRole } from '@ollm/core';
import { MESSAGE_ROLES } from '@ollm/core';

type WireRecord = Record<string, unknown>;

function isRecord(value: unknown): value is WireRecord {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function roleOf(value: unknown): MessageRole {
  if (value === 'developer') return 'system';
  return MESSAGE_ROLES.includes(value as MessageRole) ? (value as MessageRole) : 'user';
}

/** OpenAI content is a string or an array of parts; keep the text of text parts. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (isRecord(part) && typeof part['text'] === 'string' ? part['text'] : ''))
      .filter((text) => text !== '')
      .join('\n');
  }
  return '';
}

/**
 * Turns the messages of an Ollama or OpenAI chat request into core messages, so the server can
 * count what it received with the same TokenCounter the runtime uses.
 */
export function wireToMessages(wireMessages: unknown): Message[] {
  if (!Array.isArray(wireMessages)) return [];
  return wireMessages.filter(isRecord).map((wire, index) => {
    const role = roleOf(wire['role']);
    const parts: MessagePart[] = [];
    if (typeof wire['thinking'] === 'string' && wire['thinking'] !== '') {
      parts.push({ type: 'reasoning', text: wire['thinking'] });
    }
    const text = contentText(wire['content']);
    if (role === 'tool') {
      const callId = typeof wire['tool_call_id'] === 'string' ? wire['tool_call_id'] : `call-${index}`;
      const name = typeof wire['tool_name'] === 'string' ? wire['tool_name'] : undefined;
      parts.push({ type: 'tool-result', callId, output: text, ...(name ? { name } : {}) });
    } else if (text !== '') {
      parts.push({ type: 'text', text });
    }
    const calls = Array.isArray(wire['tool_calls']) ? wire['tool_calls'].filter(isRecord) : [];
    calls.forEach((call, callIndex) => {
      const fn = isRecord(call['function']) ? call['function'] : {};
      const rawArguments = fn['arguments'];
      const rawInput = typeof rawArguments === 'string' ? rawArguments : JSON.stringify(rawArguments ?? {});
      parts.push({
        type: 'tool-call',
        callId: typeof call['id'] === 'string' ? call['id'] : `call-${index}-${callIndex}`,
        name: typeof fn['name'] === 'string' ? fn['name'] : 'unknown',
        input: rawArguments ?? {},
        rawInput,
      });
    });
    const name = typeof wire['name'] === 'string' && role !== 'tool' ? wire['name'] : undefined;
    return { id: `wire-${index}`, role, parts, ...(name ? { name } : {}) };
  });
}
