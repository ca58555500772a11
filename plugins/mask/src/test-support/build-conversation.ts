import type { Message } from '@ollm/core';

export interface ToolTurn {
  readonly command: string;
  readonly output: string;
  readonly tool?: string;
  readonly isError?: boolean;
}

/** A SWE-agent-like conversation: system, user task, then one assistant call + tool result per turn. */
export function buildConversation(turns: readonly ToolTurn[]): Message[] {
  const messages: Message[] = [
    { id: 'system', role: 'system', parts: [{ type: 'text', text: 'You are a helpful assistant with a shell.' }], timestamp: '2025-01-01T00:00:00Z' },
    { id: 'user', role: 'user', parts: [{ type: 'text', text: 'Fix the failing test in django/db/models.' }], timestamp: '2025-01-01T00:00:01Z' },
  ];
  turns.forEach((turn, index) => {
    const callId = `call_${index}`;
    const tool = turn.tool ?? 'bash';
    messages.push({
      id: `assistant_${index}`,
      role: 'assistant',
      timestamp: `2025-01-01T00:${String(index + 1).padStart(2, '0')}:00Z`,
      parts: [
        { type: 'text', text: `Step ${index}: let me run a command.` },
        { type: 'tool-call', callId, name: tool, input: { command: turn.command }, rawInput: JSON.stringify({ command: turn.command }) },
      ],
    });
    messages.push({
      id: `tool_${index}`,
      role: 'tool',
      timestamp: `2025-01-01T00:${String(index + 1).padStart(2, '0')}:30Z`,
      parts: [{ type: 'tool-result', callId, name: tool, output: turn.output, ...(turn.isError ? { isError: true } : {}) }],
    });
  });
  return messages;
}

/** A SWE-agent style output of `lines` lines, large enough to be worth masking. */
export function bashOutput(label: string, lines = 40, returnCode = 0): string {
  const body = Array.from({ length: lines }, (_, line) => `/testbed/django/${label}/module_${line}.py:${line + 1}: def handler_${line}(request): pass`);
  return `<returncode>${returnCode}</returncode>\n<output>\n${body.join('\n')}\n</output>`;
}

/** The text of the tool result of turn `index`. */
export function resultOutput(messages: readonly Message[], index: number): string {
  const message = messages.find((candidate) => candidate.id === `tool_${index}`);
  const part = message?.parts[0];
  if (part?.type !== 'tool-result') throw new Error(`no tool result for turn ${index}`);
  return part.output;
}
