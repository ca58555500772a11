import { describe, expect, it } from 'vitest';
import type { Message } from '@ollm/core';
import { toOllamaMessages } from './to-ollama-messages.js';

describe('toOllamaMessages', () => {
  it('maps reasoning, tool calls and tool results', () => {
    const messages: Message[] = [
      { id: '1', role: 'user', parts: [{ type: 'text', text: 'list files' }] },
      {
        id: '2',
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'I should call ls' },
          { type: 'text', text: 'Listing.' },
          { type: 'tool-call', callId: 'c1', name: 'shell', input: { command: 'ls' } },
          { type: 'tool-call', callId: 'c2', name: 'echo', input: 'raw', rawInput: 'raw' },
        ],
      },
      {
        id: '3',
        role: 'tool',
        parts: [
          { type: 'tool-result', callId: 'c1', output: 'a.ts\nb.ts' },
          { type: 'tool-result', callId: 'c2', output: 'boom', isError: true },
        ],
      },
    ];
    expect(toOllamaMessages(messages)).toEqual([
      { role: 'user', content: 'list files' },
      {
        role: 'assistant',
        content: 'Listing.',
        thinking: 'I should call ls',
        tool_calls: [{ function: { name: 'shell', arguments: { command: 'ls' } } }, { function: { name: 'echo', arguments: { input: 'raw' } } }],
      },
      { role: 'tool', content: 'a.ts\nb.ts', tool_name: 'shell' },
      { role: 'tool', content: '[error] boom', tool_name: 'echo' },
    ]);
  });

  it('sends inline images and keeps other files as text', () => {
    const [message] = toOllamaMessages([
      {
        id: '1',
        role: 'user',
        parts: [
          { type: 'file', mediaType: 'image/png', data: 'aGVsbG8=' },
          { type: 'file', mediaType: 'application/pdf', name: 'spec.pdf' },
        ],
      },
    ]);
    expect(message).toEqual({ role: 'user', content: '[file spec.pdf]', images: ['aGVsbG8='] });
  });
});
