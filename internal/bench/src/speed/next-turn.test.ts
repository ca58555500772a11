import { describe, expect, it } from 'vitest';
import { findToolPairingProblem, type Message } from '@ollm/core';
import { freshTurnCopy, splitLastTurn } from './next-turn.js';

const conversation: Message[] = [
  { id: 's', role: 'system', parts: [{ type: 'text', text: 'system' }] },
  { id: 'u', role: 'user', parts: [{ type: 'text', text: 'task' }] },
  { id: 'a1', role: 'assistant', parts: [{ type: 'tool-call', callId: 'c1', name: 'bash', input: { command: 'ls' } }] },
  { id: 't1', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: 'a.py' }] },
  {
    id: 'a2',
    role: 'assistant',
    parts: [
      { type: 'text', text: 'open it' },
      { type: 'tool-call', callId: 'c2', name: 'open', input: { path: 'a.py' } },
    ],
  },
  { id: 't2', role: 'tool', parts: [{ type: 'tool-result', callId: 'c2', output: 'print(1)' }] },
  { id: 'exit', role: 'assistant', pinned: true, parts: [{ type: 'text', text: 'patch' }] },
];

describe('splitLastTurn', () => {
  it('cuts before the last assistant message that is not pinned', () => {
    const { history, turn } = splitLastTurn(conversation);
    expect(history.map((message) => message.id)).toEqual(['s', 'u', 'a1', 't1']);
    expect(turn.map((message) => message.id)).toEqual(['a2', 't2', 'exit']);
  });

  it('refuses a conversation without such a turn', () => {
    expect(() => splitLastTurn(conversation.slice(0, 2))).toThrow(/no assistant turn/);
  });
});

describe('freshTurnCopy', () => {
  it('gives new ids, keeps calls and results paired, and marks every text and output', () => {
    const { history, turn } = splitLastTurn(conversation);
    const copy = freshTurnCopy(turn, 'r1');
    expect(copy.map((message) => message.id)).toEqual(['a2~r1', 't2~r1', 'exit~r1']);
    expect(copy[0]!.parts).toEqual([
      { type: 'text', text: 'open it\n(r1)' },
      { type: 'tool-call', callId: 'c2~r1', name: 'open', input: { path: 'a.py' } },
    ]);
    expect(copy[1]!.parts).toEqual([{ type: 'tool-result', callId: 'c2~r1', output: 'print(1)\n(r1)' }]);
    expect(copy[2]!.pinned).toBe(true);
    expect(findToolPairingProblem([...history, ...copy], [...history, ...copy])).toBeUndefined();
    // Two copies share no part object and no text.
    const other = freshTurnCopy(turn, 'r2');
    expect(other[0]!.parts[0]).not.toEqual(copy[0]!.parts[0]);
    expect(turn[0]!.parts[0]).toEqual({ type: 'text', text: 'open it' });
  });
});
