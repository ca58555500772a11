import type { Message } from '@ollm/core';

/** Hand-made conversations for future-need's tests: a text message. */
export const text = (id: string, role: Message['role'], body: string): Message => ({ id, role, parts: [{ type: 'text', text: body }] });

/** One agent step `n`: prose and a bash call (`{ command }`, as SWE-agent's), and its result. */
export function step(n: number, prose: string, command: string, output: string): Message[] {
  return toolStep(n, prose, { command }, output);
}

/** One agent step `n` calling a tool with any arguments (`old_str` for an editor tool). */
export function toolStep(n: number, prose: string, input: Record<string, unknown>, output: string): Message[] {
  return [
    {
      id: `a${n}`,
      role: 'assistant',
      parts: [
        { type: 'text', text: prose },
        { type: 'tool-call', callId: `c${n}`, name: 'bash', input, rawInput: JSON.stringify(input) },
      ],
    },
    { id: `t${n}`, role: 'tool', parts: [{ type: 'tool-result', callId: `c${n}`, output }] },
  ];
}

/** `messages` with the result of call `callId` replaced by `output` (what a masking compaction does). */
export function withResult(messages: readonly Message[], callId: string, output: string): Message[] {
  return messages.map((message) =>
    message.parts.some((part) => part.type === 'tool-result' && part.callId === callId)
      ? { ...message, parts: [{ type: 'tool-result' as const, callId, output }] }
      : message,
  );
}
