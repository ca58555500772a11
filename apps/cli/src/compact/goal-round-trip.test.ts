import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { renderGoalBlock, type Message } from '@ollm/core';
import { ContextManager, ProviderRegistry, SessionHistory, SnapshotStore, exportSession, readSession, searchSessions } from '@ollm/runtime';
import { parseTranscript, serializeTranscript } from '@ollm/transcripts';
import { goalFromMessages } from './goal-from-messages.js';

const homes: string[] = [];
afterEach(() => {
  for (const home of homes.splice(0)) rmSync(home, { recursive: true, force: true });
});

function steppingClock(): () => Date {
  let now = Date.UTC(2031, 4, 6, 7, 8, 9);
  return () => new Date((now += 1_000));
}

/** A session that completed one goal and works on a second, recorded as the chat records it. */
function recordedSession(): { home: string; manager: ContextManager } {
  const home = mkdtempSync(join(tmpdir(), 'ollm-goal-trip-'));
  homes.push(home);
  const clock = steppingClock();
  const history = new SessionHistory({ home, sessionId: 'goal-trip', clock });
  const snapshots = new SnapshotStore({ home, clock });
  const manager = new ContextManager({ contextSize: 32_000, registry: new ProviderRegistry(), history, snapshots, sessionId: 'goal-trip', clock });
  manager.setGoal('fix the date parser', 'high');
  manager.addMessage({ role: 'user', parts: [{ type: 'text', text: 'Please fix the parser.' }] });
  manager.addMessage({
    role: 'assistant',
    parts: [{ type: 'text', text: 'Done.\n[CHECKPOINT] write a failing test - COMPLETED\n[ARTIFACT] Modified src/parse.ts' }],
  });
  manager.finishGoal('completed');
  manager.setGoal('document the parser');
  manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: '[DECISION] one page per module - LOCKED' }] });
  return { home, manager };
}

describe('goals round-trip through snapshots, exports and transcripts', () => {
  it('a snapshot restores the goal and the goal history', () => {
    const { manager } = recordedSession();
    const snapshot = manager.createSnapshot('before the docs');
    const before = manager.state();
    manager.finishGoal('abandoned');
    manager.restoreSnapshot(snapshot.id);
    expect(manager.goals.state).toEqual(before.goal);
    expect(manager.goals.history).toEqual(before.goalHistory);
    expect(manager.goals.history.map((goal) => [goal.description, goal.status, goal.priority])).toEqual([['fix the date parser', 'completed', 'high']]);
  });

  it('the session history records every goal state; the export holds each goal in its last state', () => {
    const { home } = recordedSession();
    const exported = exportSession(readSession(home, 'goal-trip'));
    expect(exported.goals!.map((goal) => [goal.description, goal.status])).toEqual([
      ['fix the date parser', 'completed'],
      ['document the parser', 'active'],
    ]);
    expect(exported.goals![0]).toMatchObject({
      priority: 'high',
      checkpoints: [{ description: 'write a failing test', status: 'completed' }],
      artifacts: [{ action: 'modified', path: 'src/parse.ts' }],
    });
    expect(exported.goals![0]!.completedAt! > exported.goals![0]!.createdAt!).toBe(true);
    // The model's lock only proposes (only the user locks decisions): kept as its proposal.
    expect(exported.goals![1]!.decisions).toEqual([{ description: 'one page per module', locked: false, by: 'model' }]);
    // What `ollm sessions search` finds.
    expect(searchSessions(home, 'date parser').hits.some((hit) => hit.source === 'goal')).toBe(true);
  });

  it('an exported session written back as a transcript keeps its goals, and compaction reads the active one', () => {
    const { home } = recordedSession();
    const exported = exportSession(readSession(home, 'goal-trip'));
    const transcript = parseTranscript(JSON.stringify(exported), { file: 'session.json' });
    expect(transcript.format).toBe('ollm-session');
    const written = JSON.parse(serializeTranscript(transcript)) as typeof exported;
    expect(written.goals).toEqual(exported.goals);
    const goal = goalFromMessages(transcript.conversations[0]!.messages, transcript.format, transcript.document)!;
    expect(goal.source).toBe('user');
    expect(goal.state).toMatchObject({
      description: 'document the parser',
      status: 'active',
      decisions: [{ description: 'one page per module', locked: false }],
    });
  });

  it("a transcript of the chat's requests gives the goal back from the goal block of its system message", () => {
    const { manager } = recordedSession();
    const messages: Message[] = manager.messagesForModel();
    const transcript = parseTranscript(
      JSON.stringify({
        messages: messages.map((message) => ({ role: message.role, content: message.parts.map((part) => (part.type === 'text' ? part.text : '')).join('') })),
      }),
      { file: 'request.json' },
    );
    const goal = goalFromMessages(transcript.conversations[0]!.messages, transcript.format, transcript.document)!;
    expect(renderGoalBlock(goal.state)).toBe(manager.goals.render());
  });
});
