import type { Message } from '../messages/message.js';
import type { MessagePart } from '../messages/message-part.js';
import type { CompactionResult } from '../provider/compaction-result.js';
import { computeSourceDigest } from '../digest/source-digest.js';

/** Builders for small conversations used across core's tests. */
export function text(id: string, role: Message['role'], body: string, extra: Partial<Message> = {}): Message {
  return { id, role, parts: [{ type: 'text', text: body }], timestamp: `2026-01-01T00:00:${id.padStart(2, '0').slice(-2)}Z`, ...extra };
}

export function toolCall(id: string, callId: string, command: string, reasoning?: string): Message {
  const parts: MessagePart[] = [];
  if (reasoning) parts.push({ type: 'reasoning', text: reasoning });
  parts.push({ type: 'tool-call', callId, name: 'bash', input: { command } });
  return { id, role: 'assistant', parts, timestamp: '2026-01-01T00:01:00Z' };
}

export function toolResult(id: string, callId: string, output: string): Message {
  return { id, role: 'tool', parts: [{ type: 'tool-result', callId, name: 'bash', output }], timestamp: '2026-01-01T00:02:00Z' };
}

/** system, user, assistant(call c1) + tool(result c1), assistant answer, user, assistant(call c2) + tool(c2). */
export function sampleConversation(): Message[] {
  return [
    text('1', 'system', 'You are a careful coding assistant.'),
    text('2', 'user', 'Please fix the failing test in utils.py.'),
    toolCall('3', 'c1', 'cat utils.py', 'I should read the file first.'),
    toolResult('4', 'c1', 'def add(a, b):\n    return a - b\n'.repeat(20)),
    text('5', 'assistant', 'The add function subtracts; I will change it to add.'),
    text('6', 'user', 'Good, go ahead.'),
    toolCall('7', 'c2', "sed -i 's/a - b/a + b/' utils.py"),
    toolResult('8', 'c2', ''),
  ];
}

/** A result shaped the way providers return them, for validator tests. */
export function resultOf(input: readonly Message[], output: readonly Message[], extra: Partial<CompactionResult> = {}): CompactionResult {
  return {
    messages: output,
    sourceDigest: computeSourceDigest(input),
    coveredThrough: input.length - 1,
    removed: [],
    limitations: [],
    stats: { tokensBefore: 0, tokensAfter: 0, timeMs: 0 },
    ...extra,
  };
}
