import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Message } from '@ollm/core';

/**
 * The runtime's own session recorder and exporter, the code `ollm chat`'s `/export` and `ollm
 * sessions export` run. @ollm/transcripts does not depend on @ollm/runtime (nor should it), so the
 * tests load the runtime's sources by path; the shapes used here are declared below.
 */
const STORAGE = fileURLToPath(new URL('../../../runtime/src/storage/', import.meta.url));

interface SessionHistoryLike {
  append(message: Message, tokens?: number): void;
  recordCompaction(entry: { provider: string; tokensBefore: number; tokensAfter: number }): void;
  read(): unknown;
  close(): void;
}
interface RuntimeStorage {
  SessionHistory: new (options: { home: string; sessionId: string; model?: string; provider?: string; clock?: () => Date }) => SessionHistoryLike;
  exportSession(record: unknown): { messages: unknown[]; toolCalls: unknown[] };
}

async function runtimeStorage(): Promise<RuntimeStorage> {
  const history = (await import(join(STORAGE, 'session-history.ts'))) as Pick<RuntimeStorage, 'SessionHistory'>;
  const exporter = (await import(join(STORAGE, 'export-session.ts'))) as Pick<RuntimeStorage, 'exportSession'>;
  return { SessionHistory: history.SessionHistory, exportSession: exporter.exportSession };
}

/** The checkpoint text goal-aware writes (header line, summary, folded quotes). */
export const CHECKPOINT_TEXT = [
  '[ollm checkpoint · level 1 · compression 1 · Messages 3-6 · 2048 tokens summarised]',
  'Read räkna.py: the loop stopped one item early. Patched range(len(items) - 1) to range(len(items)); the first patch did not apply.',
  'Earlier user messages, folded here (full text saved under logdir):',
  '> [user message 2] Fix the off-by-one in räkna.py — the loop skips the last item.',
].join('\n');

/** A session with every part type, timestamps, a failed tool call, a file and a checkpoint message. */
export const SAMPLE_SESSION: readonly Message[] = [
  { id: 'sys', role: 'system', parts: [{ type: 'text', text: 'You are a careful coding assistant. Answer briefly.' }] },
  {
    id: 'u1',
    role: 'user',
    parts: [{ type: 'text', text: 'Fix the off-by-one in räkna.py — the loop skips the last item.' }],
    timestamp: '2026-03-02T09:00:00.000Z',
  },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'reasoning', text: 'Read the file before editing it.' },
      { type: 'text', text: 'Let me read it first.' },
      { type: 'tool-call', callId: 'call_1', name: 'bash', input: { command: 'cat räkna.py' }, rawInput: '{"command":"cat räkna.py"}' },
    ],
    timestamp: '2026-03-02T09:00:04.250Z',
  },
  {
    id: 't1',
    role: 'tool',
    parts: [
      {
        type: 'tool-result',
        callId: 'call_1',
        name: 'bash',
        output: 'def total(items):\n    s = 0\n    for i in range(len(items) - 1):\n        s += items[i]\n    return s\n',
      },
    ],
    timestamp: '2026-03-02T09:00:04.900Z',
  },
  {
    id: 'a2',
    role: 'assistant',
    parts: [
      { type: 'tool-call', callId: 'call_2', name: 'apply_patch', input: { path: 'räkna.py', find: 'range(len(items) - 1)', replace: 'range(len(items))' } },
    ],
    timestamp: '2026-03-02T09:00:09.000Z',
  },
  {
    id: 't2',
    role: 'tool',
    parts: [{ type: 'tool-result', callId: 'call_2', name: 'apply_patch', output: 'patch failed: file is read-only', isError: true }],
    timestamp: '2026-03-02T09:00:09.120Z',
  },
  {
    id: 'u2',
    role: 'user',
    parts: [
      { type: 'text', text: 'I made it writable. Here is the failing run:' },
      { type: 'file', mediaType: 'image/png', uri: 'screenshots/failure.png', name: 'failure.png' },
    ],
    timestamp: '2026-03-02T09:01:30.000Z',
  },
  {
    id: 'cp',
    role: 'assistant',
    parts: [{ type: 'text', text: CHECKPOINT_TEXT }],
    timestamp: '2026-03-02T09:01:31.000Z',
    metadata: { checkpoint: { id: 'cp-live', level: 1, range: 'Messages 3-6', summary: 'dropped by the exporter', keyDecisions: ['patch in place'] } },
  },
  { id: 'a3', role: 'assistant', parts: [{ type: 'text', text: 'Patched: the loop now covers every item.' }], timestamp: '2026-03-02T09:01:40.000Z' },
];

/**
 * Records `messages` with the runtime's `SessionHistory` (a fixed clock), then exports the session
 * with the runtime's `exportSession` and returns the text exactly as the CLI writes it.
 */
export async function exportWithRuntime(messages: readonly Message[] = SAMPLE_SESSION): Promise<string> {
  const { SessionHistory, exportSession } = await runtimeStorage();
  const home = mkdtempSync(join(tmpdir(), 'ollm-session-export-'));
  try {
    let tick = Date.parse('2026-03-02T09:00:00.000Z');
    const clock = (): Date => new Date((tick += 1000));
    const history = new SessionHistory({ home, sessionId: 'fixture-session', model: 'qwen3:8b', provider: 'ollama', clock });
    messages.forEach((message, index) => history.append(message, 10 + index));
    history.recordCompaction({ provider: 'goal-aware', tokensBefore: 2400, tokensAfter: 700 });
    const record = history.read();
    history.close();
    // As `ollm sessions export` and `/export` write it (redaction aside: no secrets here).
    return `${JSON.stringify(exportSession(record), null, 2)}\n`;
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
