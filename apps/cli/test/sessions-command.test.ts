import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Message } from '@ollm/core';
import { SessionHistory, SnapshotStore } from '@ollm/runtime';
import { runOllm, temporaryFolder } from './run-ollm.js';

const sessionId = '20261130-061702-3f2a';
// The session's own clock: the list shows its start day, whatever day the test runs on.
const sessionClock = () => new Date('2026-11-30T06:17:02.000Z');
const messages: Message[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'read the config' }], timestamp: '2026-11-30T06:17:03.000Z' },
  {
    id: 'a1',
    role: 'assistant',
    parts: [{ type: 'tool-call', callId: 'c1', name: 'read_file', input: { path: 'ollm.config.json' } }],
    timestamp: '2026-11-30T06:17:04.000Z',
  },
  { id: 't1', role: 'tool', parts: [{ type: 'tool-result', callId: 'c1', output: '{"model":"x"}' }], timestamp: '2026-11-30T06:17:05.000Z' },
  { id: 'a2', role: 'assistant', parts: [{ type: 'text', text: 'The model is x.' }], timestamp: '2026-11-30T06:17:06.000Z' },
];

describe('ollm sessions and ollm snapshot', () => {
  let folder: ReturnType<typeof temporaryFolder>;
  let env: Record<string, string>;
  let home: string;
  let snapshotId: string;
  beforeEach(() => {
    folder = temporaryFolder();
    home = join(folder.path, 'home');
    env = { OLLM_HOME: home };
    const history = new SessionHistory({ home, sessionId, model: 'fake-llama:8b', provider: 'goal-aware', clock: sessionClock });
    for (const message of messages) history.append(message, 10);
    history.recordCompaction({ provider: 'trim', tokensBefore: 40, tokensAfter: 30 });
    history.close();
    const snapshot = new SnapshotStore({ home, clock: sessionClock }).create({
      sessionId,
      automatic: false,
      context: { systemPrompt: 'be brief', messages: messages.slice(0, 1), compactionCount: 1 },
      tokenCount: 20,
      messageCount: 1,
      checkpointCount: 0,
      metadata: { reason: 'manual' },
    });
    snapshotId = snapshot.id;
  });
  afterEach(() => folder.remove());

  const ollm = (args: string[]) => runOllm(args, { env, cwd: folder.path });

  it('lists sessions as a table and as JSON', async () => {
    const table = await ollm(['sessions', 'list']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(new RegExp(`^${sessionId}\\s+2026-11-30 \\d\\d:\\d\\d\\s+.*\\s4\\s+1\\s+fake-llama:8b\\s+goal-aware$`, 'm'));
    const json = JSON.parse((await ollm(['sessions', 'list', '--json'])).stdout) as { sessions: Record<string, unknown>[] };
    expect(json.sessions).toEqual([
      expect.objectContaining({ sessionId, model: 'fake-llama:8b', messageCount: 4, compactionCount: 1, compressionCount: 1, tokenCount: 40 }),
    ]);
  });

  it('shows and exports a session in the JSON session layout, tool calls joined with their results', async () => {
    const shown = await ollm(['sessions', 'show', sessionId]);
    expect(shown.stdout).toContain('4 messages, 40 tokens recorded, 1 compaction');
    expect(shown.stdout).toContain('The model is x.');
    const out = join(folder.path, 'export.json');
    const exported = await ollm(['sessions', 'export', sessionId, '--out', out]);
    expect(exported.code).toBe(0);
    expect(exported.stderr).toBe('exported 4 messages and 1 tool call to export.json\n');
    const document = JSON.parse(readFileSync(out, 'utf8')) as Record<string, unknown>;
    expect(document['toolCalls']).toEqual([
      { id: 'c1', name: 'read_file', args: { path: 'ollm.config.json' }, result: { llmContent: '{"model":"x"}' }, timestamp: '2026-11-30T06:17:04.000Z' },
    ]);
    expect(document['metadata']).toEqual({ tokenCount: 40, compactionCount: 1, compressionCount: 1 });
  });

  it('refuses an unknown or unsafe session id with exit 2', async () => {
    const missing = await ollm(['sessions', 'show', 'nope']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^ollm: No session "nope" under .+ \(see `ollm sessions list`\)\.\n$/);
    expect((await ollm(['sessions', 'delete', '../etc'])).code).toBe(2);
  });

  it('restores a snapshot into the session, so the next chat resumes from it', async () => {
    const listed = await ollm(['snapshot', 'list']);
    expect(listed.stdout).toContain(snapshotId);
    const restored = await ollm(['snapshot', 'restore', snapshotId]);
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain(`into session ${sessionId}; resume with: ollm --session ${sessionId}`);
    const saved = JSON.parse(readFileSync(join(home, 'sessions', sessionId, 'context.json'), 'utf8')) as {
      restoredFrom: string;
      context: { messages: Message[] };
    };
    expect(saved.restoredFrom).toBe(snapshotId);
    expect(saved.context.messages.map((message) => message.id)).toEqual(['u1']);
    const shown = await ollm(['snapshot', 'show', snapshotId, '--json']);
    expect((JSON.parse(shown.stdout) as { id: string }).id).toBe(snapshotId);
  });

  it('keeps a snapshot (never pruned), shows it as kept, and unkeeps it', async () => {
    const kept = await ollm(['snapshot', 'keep', snapshotId]);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toBe(`kept snapshot ${snapshotId} of session ${sessionId}: never pruned (ollm snapshot unkeep ${snapshotId} undoes it)\n`);
    expect((await ollm(['snapshot', 'list'])).stdout).toMatch(new RegExp(`${snapshotId}\\s+2026-11-30 06:17\\s+manual, kept`));
    // A later store with a quota of one manual snapshot prunes the newer one, not the kept one.
    const store = new SnapshotStore({ home, retainManual: 1 });
    const create = () =>
      store.create({
        sessionId,
        automatic: false,
        context: { systemPrompt: '', messages: [], compactionCount: 0 },
        tokenCount: 1,
        messageCount: 0,
        checkpointCount: 0,
        metadata: {},
      });
    create();
    const newest = create();
    expect(store.list(sessionId).map((snapshot) => snapshot.id)).toEqual([newest.id, snapshotId]);
    expect((await ollm(['snapshot', 'unkeep', snapshotId])).stdout).toBe(`snapshot ${snapshotId} of session ${sessionId} is no longer kept\n`);
    expect((await ollm(['snapshot', 'list'])).stdout).not.toContain('kept');
    // A part of the id only it has names it, here the start of its random part.
    const random = snapshotId.split('-')[2]!;
    expect((await ollm(['snapshot', 'keep', random])).stdout).toBe(
      `kept snapshot ${snapshotId} of session ${sessionId}: never pruned (ollm snapshot unkeep ${snapshotId} undoes it)\n`,
    );
    expect((await ollm(['snapshot', 'show', snapshotId.slice(0, 10), '--json'])).stdout).toContain(`"id": "${snapshotId}"`);
    const missing = await ollm(['snapshot', 'keep', '20991231235959000-000-000000-m']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('No snapshot "20991231235959000-000-000000-m"');
  });

  it('deletes a snapshot, then the session with everything it had', async () => {
    expect((await ollm(['snapshot', 'delete', snapshotId])).code).toBe(0);
    expect((await ollm(['snapshot', 'show', snapshotId])).code).toBe(2);
    const deleted = await ollm(['sessions', 'delete', sessionId]);
    expect(deleted.stdout).toBe(`deleted session ${sessionId}\n`);
    expect(existsSync(join(home, 'sessions', sessionId))).toBe(false);
    expect(JSON.parse((await ollm(['sessions', 'list', '--json'])).stdout)).toEqual({ sessions: [] });
  });
});
