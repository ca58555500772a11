import type { Message } from '@ollm/core';

export interface AgentStep {
  readonly thought: string;
  readonly command: string;
  readonly output: string;
  readonly reasoning?: string;
}

/** A SWE-agent-like run: system, the task, then one assistant call and its tool result per step. */
export function agentConversation(task: string, steps: readonly AgentStep[]): Message[] {
  const messages: Message[] = [
    { id: 'system', role: 'system', parts: [{ type: 'text', text: 'You are a software engineer with a bash tool.' }], timestamp: '2025-01-01T00:00:00Z' },
    { id: 'task', role: 'user', parts: [{ type: 'text', text: task }], timestamp: '2025-01-01T00:00:01Z' },
  ];
  steps.forEach((step, index) => {
    const callId = `call_${index}`;
    const minute = String(index + 1).padStart(2, '0');
    messages.push({
      id: `assistant_${index}`,
      role: 'assistant',
      timestamp: `2025-01-01T00:${minute}:00Z`,
      parts: [
        ...(step.reasoning ? [{ type: 'reasoning' as const, text: step.reasoning }] : []),
        { type: 'text', text: step.thought },
        { type: 'tool-call', callId, name: 'bash', input: { command: step.command }, rawInput: JSON.stringify({ command: step.command }) },
      ],
    });
    messages.push({
      id: `tool_${index}`,
      role: 'tool',
      timestamp: `2025-01-01T00:${minute}:30Z`,
      parts: [{ type: 'tool-result', callId, name: 'bash', output: step.output }],
    });
  });
  return messages;
}

/** A file view of `lines` numbered lines defining `handler_<n>` functions, SWE-agent style. */
export function fileView(path: string, lines: number, returnCode = 0): string {
  const body = Array.from({ length: lines }, (_, line) => `${line + 1}: def handler_${line}(request): return render_view_${line}(request)`);
  return `<returncode>${returnCode}</returncode>\n<output>\n# ${path}\n${body.join('\n')}\n</output>`;
}
