import type { Message } from '@ollm/core';

const longOutput = Array.from({ length: 120 }, (_, line) => `${String(line + 1).padStart(6)}\tdef helper_${line}(value):\n        return value * ${line}`).join(
  '\n',
);

/** A small hand-written conversation with every shape the broken-provider tests need. */
export const sampleConversation: readonly Message[] = [
  { id: 'system', role: 'system', parts: [{ type: 'text', text: 'You are a careful coding agent.' }], timestamp: '2025-03-01T09:00:00.000Z' },
  { id: 'user-1', role: 'user', parts: [{ type: 'text', text: 'Fix the failing test in utils.py, please.' }], timestamp: '2025-03-01T09:00:05.000Z' },
  {
    id: 'assistant-1',
    role: 'assistant',
    parts: [
      { type: 'reasoning', text: 'I should look at the file and run the tests at the same time.' },
      { type: 'tool-call', callId: 'call-read', name: 'bash', input: { command: 'cat -n utils.py' } },
      { type: 'tool-call', callId: 'call-test', name: 'bash', input: { command: 'pytest -q' } },
    ],
  },
  {
    id: 'tool-test',
    role: 'tool',
    parts: [{ type: 'tool-result', callId: 'call-test', name: 'bash', output: 'FAILED test_utils.py::test_helper_3 - assert 9 == 6' }],
  },
  { id: 'tool-read', role: 'tool', parts: [{ type: 'tool-result', callId: 'call-read', name: 'bash', output: longOutput }] },
  {
    id: 'assistant-2',
    role: 'assistant',
    parts: [
      {
        type: 'text',
        text: '<think>\nhelper_3 multiplies instead of adding.\n</think>\n\nThe bug is in helper_3: it multiplies where the test expects addition.',
      },
    ],
    timestamp: '2025-03-01T09:00:40.000Z',
  },
  { id: 'user-2', role: 'user', parts: [{ type: 'text', text: 'Keep the public API unchanged.' }], pinned: true },
  { id: 'assistant-3', role: 'assistant', parts: [{ type: 'text', text: 'Understood; only the body of helper_3 changes.' }], pinned: true },
  { id: 'user-3', role: 'user', parts: [{ type: 'text', text: 'Go ahead.' }] },
  { id: 'assistant-4', role: 'assistant', parts: [{ type: 'tool-call', callId: 'call-edit', name: 'bash', input: { command: "sed -i 's/\\*/+/' utils.py" } }] },
];
