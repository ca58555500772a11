import type { Message, MessagePart } from '@ollm/core';

/** Builds small conversations for tests with stable ids and increasing timestamps. */
export class ConversationBuilder {
  private readonly messages: Message[] = [];
  private callCount = 0;

  private add(role: Message['role'], parts: MessagePart[], extra: Partial<Message> = {}): this {
    const position = this.messages.length;
    this.messages.push({
      id: `m${position}`,
      role,
      parts,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, position)).toISOString(),
      ...extra,
    });
    return this;
  }

  system(text: string): this {
    return this.add('system', [{ type: 'text', text }]);
  }

  user(text: string): this {
    return this.add('user', [{ type: 'text', text }]);
  }

  assistant(text: string, reasoning?: string, extra: Partial<Message> = {}): this {
    const parts: MessagePart[] = [];
    if (reasoning !== undefined) parts.push({ type: 'reasoning', text: reasoning });
    parts.push({ type: 'text', text });
    return this.add('assistant', parts, extra);
  }

  /** An assistant bash call followed by its tool result. */
  toolRound(command: string, output: string, text = 'Running a command.'): this {
    const callId = `call_${this.callCount++}`;
    this.add('assistant', [
      { type: 'text', text },
      { type: 'tool-call', callId, name: 'bash', input: { command }, rawInput: JSON.stringify({ command }) },
    ]);
    return this.add('tool', [{ type: 'tool-result', callId, name: 'bash', output }]);
  }

  build(): Message[] {
    return [...this.messages];
  }
}

/** `count` numbered lines of filler output, about 8 tokens each. */
export function numberedLines(count: number, label = 'line'): string {
  return Array.from({ length: count }, (_, index) => `${label} ${index + 1}: lorem ipsum dolor sit amet`).join('\n');
}
