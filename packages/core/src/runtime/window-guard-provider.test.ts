import { describe, expect, it } from 'vitest';
import { compactWith } from '../host/compact-with.js';
import type { Message } from '../messages/message.js';
import { createWindowGuardProvider } from './window-guard-provider.js';

const text = (id: string, role: Message['role'], body: string): Message => ({ id, role, parts: [{ type: 'text', text: body }] });
const long = 'lorem ipsum dolor '.repeat(60);

describe('window guard', () => {
  it('drops whole turns oldest first, never a system, user or pinned message, and keeps pairing', async () => {
    const messages: Message[] = [
      text('s', 'system', 'rules'),
      text('u1', 'user', 'first task'),
      { id: 'a1', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c1', name: 'bash', input: {} }, { type: 'tool-call', callId: 'c2', name: 'bash', input: {} }] },
      { id: 't1', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: long }] },
      { id: 't2', role: 'tool', parts: [{ type: 'tool-result', callId: 'c2', output: long }] },
      { id: 'a2', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c3', name: 'bash', input: {} }] },
      // A result carried by a user message (Anthropic layout): its call must stay with it.
      { id: 'u2', role: 'user', parts: [{ type: 'tool-result', callId: 'c3', output: long }] },
      { ...text('a3', 'assistant', long), pinned: true },
      text('a4', 'assistant', long),
      text('u3', 'user', 'latest'),
    ];
    const result = await compactWith(createWindowGuardProvider(), messages, { config: { limit: 700 } });
    const kept = result.messages.map((message) => message.id);
    expect(kept).not.toContain('a1');
    expect(kept).not.toContain('t1');
    expect(kept).not.toContain('t2');
    expect(kept).toEqual(expect.arrayContaining(['s', 'a2', 'u2', 'a3', 'u3']));
    expect(result.removed[0]).toMatchObject({ messageId: 'a1', kind: 'turn' });
  });
});
