import type { Message } from '@ollm/core';

/** Builds a coding-agent conversation by hand: shell calls and their outputs, in order. */
export class ConversationBuilder {
  private readonly messages: Message[] = [];
  private calls = 0;

  private push(message: Omit<Message, 'id' | 'timestamp'>): this {
    const index = this.messages.length;
    this.messages.push({ id: `m${index}`, timestamp: new Date(Date.UTC(2025, 0, 1, 0, index)).toISOString(), ...message });
    return this;
  }

  system(text: string): this {
    return this.push({ role: 'system', parts: [{ type: 'text', text }] });
  }

  user(text: string): this {
    return this.push({ role: 'user', parts: [{ type: 'text', text }] });
  }

  assistant(text: string, options: { pinned?: boolean } = {}): this {
    return this.push({ role: 'assistant', parts: [{ type: 'text', text }], ...(options.pinned ? { pinned: true } : {}) });
  }

  /** An assistant bash call and the tool message answering it (mini-swe-agent's output wrapper). */
  shell(command: string, output: string, returnCode = 0): this {
    const callId = `call_${++this.calls}`;
    this.push({ role: 'assistant', parts: [{ type: 'tool-call', callId, name: 'bash', input: { command } }] });
    return this.push({
      role: 'tool',
      parts: [{ type: 'tool-result', callId, output: `<returncode>${String(returnCode)}</returncode>\n<output>\n${output}\n</output>` }],
    });
  }

  /** An editor call (`str_replace_editor`-style) with its input, and its output. */
  tool(name: string, input: Record<string, unknown>, output: string): this {
    const callId = `call_${++this.calls}`;
    this.push({ role: 'assistant', parts: [{ type: 'tool-call', callId, name, input }] });
    return this.push({ role: 'tool', parts: [{ type: 'tool-result', callId, output }] });
  }

  build(): Message[] {
    return [...this.messages];
  }
}

/** A Python module with `count` methods of a class, each with a body of several rows. */
export function pythonModule(className: string, count: number): string {
  const name = className.toLowerCase();
  const rows = ['import os', 'import sys', '', `class ${className}:`, `    """Docstring of ${className}."""`, ''];
  for (let index = 0; index < count; index++) {
    rows.push(
      `    def method_${index}(self, value):`,
      `        # explain ${name} step ${index}`,
      `        ${name}_first = value + ${index}`,
      `        ${name}_second = ${name}_first * ${index + 2}`,
      `        ${name}_third = os.path.join(str(${name}_second), "part_${index}")`,
      `        return ${name}_third`,
      '',
    );
  }
  return rows.join('\n');
}
