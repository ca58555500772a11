import { describe, expect, it } from 'vitest';
import { compactWith } from '@ollm/core';
import type { Message } from '@ollm/core';
import dedupe, { createDedupeProvider } from '../src/index.js';

const file = Array.from({ length: 60 }, (_, line) => `${line + 1}    def method_${line}(self): return self.value_${line}`).join('\n');
const call = (id: string, callId: string, command: string): Message => ({
  id,
  role: 'assistant',
  parts: [{ type: 'tool-call', callId, name: 'bash', input: { command } }],
});
const result = (id: string, callId: string, output: string): Message => ({ id, role: 'tool', parts: [{ type: 'tool-result', callId, output }] });

// An agent reads models.py, runs the tests, then reads the file again (one line changed).
const edited = file.replace('def method_30(self)', 'def method_30(self, strict=False)');
const messages: readonly Message[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Fix the failing test in models.py.' }] },
  call('a1', 'c1', 'cat -n models.py'),
  result('t1', 'c1', file),
  call('a2', 'c2', 'pytest -q'),
  result('t2', 'c2', 'FAILED tests/test_models.py::test_method_30 - TypeError'),
  call('a3', 'c3', 'cat -n models.py'),
  result('t3', 'c3', edited),
  call('a4', 'c4', 'pytest -q'),
  result('t4', 'c4', 'FAILED tests/test_models.py::test_method_30 - TypeError'),
  { id: 'a5', role: 'assistant', parts: [{ type: 'text', text: 'The test still fails.' }] },
];
const outputOf = (messages: readonly Message[], id: string): string => {
  const part = messages.find((message) => message.id === id)?.parts[0];
  return part?.type === 'tool-result' ? part.output : '';
};

describe('dedupe', () => {
  it('replaces the lines a later output repeats by a reference to that call, and saves tokens', async () => {
    const compacted = await compactWith(dedupe, messages);
    expect(compacted.stats.tokensAfter).toBeLessThan(compacted.stats.tokensBefore * 0.6);
    // The first read keeps only its changed line; the rest points at the second read.
    expect(outputOf(compacted.messages, 't1')).toBe(
      ['[dedupe: 30 lines also in the output of bash call c3]', file.split('\n')[30], '[dedupe: 29 lines also in the output of bash call c3]'].join('\n'),
    );
    // The first test run's output is the second's, word for word.
    expect(outputOf(compacted.messages, 't2')).toBe('[dedupe: same output as bash call c4]');
    expect(outputOf(compacted.messages, 't4')).toBe(outputOf(messages, 't4'));
    expect(compacted.removed.map((entry) => entry.messageId)).toEqual(['t1', 't2']);
    expect((compacted.warnings ?? []).map((warning) => warning.type)).toEqual(['note', 'not-recoverable']);
  });

  it('keeps the newest copy verbatim and replaces an older identical output whole', async () => {
    const twice = messages.map((message) => (message.id === 't3' ? result('t3', 'c3', file) : message));
    const compacted = await compactWith(dedupe, twice);
    expect(outputOf(compacted.messages, 't1')).toBe('[dedupe: same output as bash call c3]');
    expect(outputOf(compacted.messages, 't3')).toBe(file);
    expect(compacted.messages.map((message) => message.id)).toEqual(twice.map((message) => message.id));
    expect(outputOf(twice, 't1')).toBe(file); // the input is never modified
  });

  it('stops once under the limit, and leaves a conversation without repeats alone', async () => {
    const compacted = await compactWith(dedupe, messages, { config: { limit: 100_000 } });
    expect(compacted.messages).toEqual(messages);
    expect(compacted.warnings).toEqual([{ type: 'nothing-to-do', reason: 'dedupe: already under the limit' }]);

    const once = messages.slice(0, 5);
    const alone = await compactWith(createDedupeProvider({ minLines: 3 }), once);
    expect(alone.messages).toEqual(once);
    expect(alone.warnings).toEqual([{ type: 'nothing-to-do', reason: 'dedupe: no tool output repeats a later one' }]);
  });
});
