import { describe, expect, it } from 'vitest';
import type { Message } from './message.js';
import { toolTurnGroups } from './tool-turns.js';

const say = (id: string, role: Message['role']): Message => ({ id, role, parts: [{ type: 'text', text: id }] });
const call = (id: string, ...callIds: string[]): Message => ({
  id,
  role: 'assistant',
  parts: callIds.map((callId) => ({ type: 'tool-call' as const, callId, name: 'bash', input: {} })),
});
const result = (id: string, callId: string): Message => ({ id, role: 'tool', parts: [{ type: 'tool-result', callId, output: 'out' }] });

describe('toolTurnGroups', () => {
  it('joins a call with all its results (parallel calls, results in several messages); other messages stand alone', () => {
    const messages = [say('u', 'user'), call('a', 'c1', 'c2'), result('r1', 'c1'), say('t', 'assistant'), result('r2', 'c2')];
    expect(toolTurnGroups(messages)).toEqual([[0], [1, 2, 4], [1, 2, 4], [3], [1, 2, 4]]);
  });
});
