import type { Message } from '../messages/message.js';

/** The small fixed conversation whose digest docs/source-digest.md works through. */
export const DOCUMENTED_CONVERSATION: Message[] = [
  { id: 'm1', role: 'system', parts: [{ type: 'text', text: 'You are terse.' }], timestamp: '2026-01-01T00:00:00Z' },
  { id: 'm2', role: 'user', parts: [{ type: 'text', text: 'List the files.' }], timestamp: '2026-01-01T00:00:01Z' },
  {
    id: 'm3',
    role: 'assistant',
    parts: [
      { type: 'reasoning', text: 'Use ls.' },
      { type: 'tool-call', callId: 'call_1', name: 'bash', input: { command: 'ls', cwd: '/repo' } },
    ],
  },
  { id: 'm4', role: 'tool', parts: [{ type: 'tool-result', callId: 'call_1', name: 'bash', output: 'a.py\nb.py\n' }] },
  { id: 'm5', role: 'assistant', name: 'helper', pinned: true, parts: [{ type: 'text', text: 'Two files: a.py, b.py — done ✓' }] },
];

/** Its digest, recomputed independently with the Python recipe in docs/source-digest.md. */
export const DOCUMENTED_DIGEST = '5d73ccc787cd2753bfa252edf31eb2423c0a9839cf7f5f86f5b80727471ed0df';
