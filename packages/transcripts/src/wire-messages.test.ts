import { describe, expect, it } from 'vitest';
import { readWireMessages } from './wire-messages.js';

describe('readWireMessages (anthropic)', () => {
  const wire = [
    { role: 'system', content: [{ type: 'text', text: 'You are Claude Code.', cache_control: { type: 'ephemeral' } }] },
    { role: 'user', content: [{ type: 'text', text: 'Fix the bug.' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }] },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 't1', content: 'a.py' },
        { type: 'text', text: 'go on' },
      ],
    },
    { role: 'system', content: 'A reminder in the middle.' },
    { role: 'assistant', content: 'Done.' },
  ];

  it('reads role-system messages inside messages (Claude Code) as system messages, in place', () => {
    const { messages } = readWireMessages('anthropic', wire, 'body');
    expect(messages.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'user', 'system', 'assistant']);
  });

  it('writes them back where they were, every block as it came (cache_control kept)', () => {
    const read = readWireMessages('anthropic', wire, 'body');
    expect(read.write(read.messages)).toEqual(wire);
    // Without the middle turns: still a role-system message first, not moved to a top-level system.
    const kept = read.messages.filter((message) => message.role !== 'tool' && message.parts[0]?.type !== 'tool-call' && message.id !== read.messages[4]!.id);
    expect((read.write(kept) as { role: string }[]).map((message) => message.role)).toEqual(['system', 'user', 'system', 'assistant']);
  });
});
