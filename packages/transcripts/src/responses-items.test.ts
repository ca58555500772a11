import { describe, expect, it } from 'vitest';
import { readWireMessages } from './wire-messages.js';

// What Codex sends as `input` (store: false): the system prompt as a developer message, then the history.
const items = [
  { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'You are Codex.' }] },
  { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Fix the failing test.' }] },
  { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Look at the test first.' }], encrypted_content: 'opaque' },
  { type: 'function_call', call_id: 'c1', name: 'shell', arguments: '{"command":["cat","a.py"]}' },
  { type: 'function_call', call_id: 'c2', name: 'shell', arguments: '{"command":["cat","b.py"]}' },
  { type: 'function_call_output', call_id: 'c1', output: 'print(1)' },
  { type: 'function_call_output', call_id: 'c2', output: 'print(2)' },
  { type: 'custom_tool_call', call_id: 'c3', name: 'apply_patch', input: '*** Begin Patch' },
  { type: 'custom_tool_call_output', call_id: 'c3', output: 'Done!' },
  { role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.' }] },
];

describe('readWireMessages (responses)', () => {
  it('reads messages, reasoning, parallel calls as one assistant message, and their outputs', () => {
    const { messages } = readWireMessages('responses', items, 'input');
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant']);
    expect(messages[3]!.parts.map((part) => (part.type === 'tool-call' ? part.callId : ''))).toEqual(['c1', 'c2']);
    expect(messages[6]!.parts[0]).toMatchObject({ type: 'tool-call', name: 'apply_patch', input: { input: '*** Begin Patch' } });
  });

  it('writes unchanged messages back as their items, byte for byte, and changed ones plainly, in their own item types', () => {
    const read = readWireMessages('responses', items, 'input');
    expect(read.write(read.messages)).toEqual(items);
    const changed = read.messages.map((message) =>
      message.role === 'tool'
        ? { ...message, parts: message.parts.map((part) => (part.type === 'tool-result' ? { ...part, output: '[ollm fold 0123456789ab] 1 lines' } : part)) }
        : message,
    );
    const written = read.write(changed) as Record<string, unknown>[];
    expect(written.filter((item) => String(item['type']).endsWith('_output')).map((item) => [item['type'], item['output']])).toEqual([
      ['function_call_output', '[ollm fold 0123456789ab] 1 lines'],
      ['function_call_output', '[ollm fold 0123456789ab] 1 lines'],
      ['custom_tool_call_output', '[ollm fold 0123456789ab] 1 lines'],
    ]);
    // A new assistant message (a digest) is an output_text message.
    expect(read.write([read.messages[0]!, { id: 'new', role: 'assistant', parts: [{ type: 'text', text: 'digest' }] }])).toEqual([
      items[0],
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'digest' }] },
    ]);
  });

  it('refuses item types it does not read, naming the item', () => {
    expect(() => readWireMessages('responses', [{ type: 'web_search_call', id: 'ws' }], 'input')).toThrow(/input item 0.*web_search_call/);
  });
});
