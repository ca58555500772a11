import { describe, expect, it } from 'vitest';
import { leadingMessages, verbatimStart } from './compaction-split.js';

const system = { role: 'system', content: 'You are an agent.' };
const task = { role: 'user', content: 'Fix the bug.' };
const call = (id: number) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id: `c${id}`, type: 'function', function: { name: 'bash', arguments: '{}' } }],
});
const result = (id: number, text = `output ${id}`) => ({ role: 'tool', tool_call_id: `c${id}`, content: text });
const digest = { role: 'assistant', content: '[ollm fold 0123456789ab] 3 earlier steps folded' };

describe('leadingMessages', () => {
  it('counts the system prompt and the task, and stops at the first user message', () => {
    const original = [system, task, call(1), result(1), call(2), result(2)];
    // A compaction that kept the first call too: only system and task count (a compaction may fold that call).
    expect(leadingMessages([system, task, call(1), result(1, 'reduced')], original)).toBe(2);
    expect(leadingMessages([system, task, digest, call(2), result(2)], original)).toBe(2);
  });

  it('stops where the compaction differs, even before the task', () => {
    expect(leadingMessages([{ role: 'system', content: 'other' }, task], [system, task])).toBe(0);
    expect(leadingMessages([system, { role: 'user', content: 'Fix the bug, shortened.' }], [system, task])).toBe(1);
    expect(leadingMessages([], [system, task])).toBe(0);
  });
});

describe('verbatimStart', () => {
  it('finds where the newest messages, kept as sent, start', () => {
    const original = [system, task, call(1), result(1), call(2), result(2), call(3), result(3)];
    const compacted = [system, task, digest, call(2), result(2, 'reduced'), call(3), result(3)];
    expect(verbatimStart(compacted, original, original.length)).toBe(5);
  });

  it('compares against the messages the compaction covered, not the request that grew since', () => {
    const original = [system, task, call(1), result(1), call(2), result(2), call(3), result(3)];
    const compacted = [system, task, digest, call(2), result(2)];
    expect(verbatimStart(compacted, original, 6)).toBe(3);
    expect(verbatimStart(compacted, original, original.length)).toBe(5);
  });

  it('is the length when nothing at the end was kept as sent', () => {
    const original = [system, task, call(1), result(1)];
    expect(verbatimStart([system, task, digest, result(1, 'reduced')], original, 4)).toBe(4);
  });
});
