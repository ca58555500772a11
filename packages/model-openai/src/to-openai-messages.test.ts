import { describe, expect, it } from 'vitest';
import type { Message } from '@ollm/core';
import { toOpenAIMessages } from './to-openai-messages.js';

describe('toOpenAIMessages', () => {
  it('maps tool calls, tool results, names and images; drops reasoning', () => {
    const messages: Message[] = [
      { id: '0', role: 'system', parts: [{ type: 'text', text: 'be brief' }] },
      {
        id: '1',
        role: 'user',
        name: 'ana',
        parts: [
          { type: 'text', text: 'what is this?' },
          { type: 'file', mediaType: 'image/png', data: 'aGVsbG8=' },
        ],
      },
      {
        id: '2',
        role: 'assistant',
        parts: [
          { type: 'reasoning', text: 'hidden' },
          { type: 'tool-call', callId: 'c1', name: 'shell', input: { command: 'ls' }, rawInput: '{"command":"ls"}' },
        ],
      },
      { id: '3', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: 'a.ts', isError: false }] },
    ];
    expect(toOpenAIMessages(messages)).toEqual([
      { role: 'system', content: 'be brief' },
      {
        role: 'user',
        name: 'ana',
        content: [
          { type: 'text', text: 'what is this?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,aGVsbG8=' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'shell', arguments: '{"command":"ls"}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'a.ts' },
    ]);
  });
});
