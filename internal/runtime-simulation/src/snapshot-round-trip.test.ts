import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkpointOf, isCheckpointMessage } from '@ollm/core';
import { ContextManager, type ContextState } from '@ollm/runtime';
import { startFakeModelServer, type FakeModelServer } from '@ollm/fake-model-server';
import { runTurns } from './run-turns.js';
import { createSimulatedSession, type SimulatedSession } from './simulated-session.js';
import { createSimulationRegistry, SIMULATION_PIPELINE } from './simulation-registry.js';

const CONTEXT_SIZE = 8_192;
const PLAN = [
  '[GOAL] Fix the ordering bug in the migration autodetector',
  '[CHECKPOINT] Reproduce the bug - COMPLETED',
  '[CHECKPOINT] Write the fix - IN PROGRESS',
  '[DECISION] Keep the public API unchanged - LOCKED',
  '[ARTIFACT] Modified django/db/migrations/autodetector.py',
  '[NEXT] Run the migration tests',
].join('\n');

let server: FakeModelServer;
let session: SimulatedSession;
beforeAll(async () => {
  server = await startFakeModelServer();
  session = createSimulatedSession({ server, contextSize: CONTEXT_SIZE, sessionId: 'snapshots' });
});
afterAll(async () => {
  session?.history.close();
  await server?.close();
});

function checkpointsOf(state: ContextState) {
  return state.messages.filter(isCheckpointMessage).map((message) => checkpointOf(message)!);
}

describe('snapshots through real goal-aware compactions', () => {
  it('restores exactly the saved context: messages, aged checkpoints, goal, provider state', async () => {
    const { manager } = session;
    let turn = 0;
    // Compact with goal-aware until checkpoints have aged (more than one level present).
    while (new Set(checkpointsOf(manager.state()).map((checkpoint) => checkpoint.level)).size < 2) {
      const report = await runTurns(session, { turns: 10, firstTurn: turn, sendEvery: 5 });
      turn += 10;
      if (turn === 10) manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: PLAN }] });
      expect(report.turns).toBe(10);
      expect(turn).toBeLessThan(400);
    }
    // The per-source goal of runTurns replaced the plan. It is set as the user's, which the model's
    // markers do not replace: clear it, so the plan's markers set the goal the snapshot carries.
    manager.goals.clear();
    manager.addMessage({ role: 'assistant', parts: [{ type: 'text', text: PLAN }] });
    const saved = manager.createSnapshot('after goal-aware compactions');
    const state = manager.state();
    const sent = manager.messagesForModel();
    // The model's lock is its proposal (only the user locks decisions): kept as such.
    expect(state.goal?.decisions).toEqual([{ description: 'Keep the public API unchanged', locked: false, by: 'model' }]);
    expect(checkpointsOf(state).length).toBeGreaterThanOrEqual(2);

    // Move on: more compactions age the checkpoints, the goal changes.
    const compactionsBefore = manager.compactionCount;
    await runTurns(session, { turns: 60, firstTurn: turn, sendEvery: 0 });
    turn += 60;
    manager.setGoal('Something else entirely');
    expect(manager.compactionCount).toBeGreaterThan(compactionsBefore);
    expect(manager.state()).not.toEqual(state);

    manager.restoreSnapshot(saved.id);
    expect(manager.state()).toEqual(state);
    expect(manager.messagesForModel()).toEqual(sent);
    expect(checkpointsOf(manager.state())).toEqual(checkpointsOf(state));
    expect(manager.goals.state).toEqual(state.goal);
    expect(manager.compactionCount).toBe(compactionsBefore);

    // A new manager (a restarted application) restores the same context from disk.
    const restarted = new ContextManager({
      contextSize: CONTEXT_SIZE,
      registry: createSimulationRegistry(),
      autoPipeline: SIMULATION_PIPELINE,
      snapshots: session.snapshots,
      sessionId: 'snapshots',
      model: session.model,
    });
    restarted.restoreSnapshot(saved.id);
    expect(restarted.state()).toEqual(state);
    expect(restarted.messagesForModel()).toEqual(sent);
    // Token counts match; the budget may not, as calibration belongs to the model, not the snapshot.
    expect(restarted.tokens.countMessages(restarted.messagesForModel())).toBe(manager.tokens.countMessages(sent));
  });

  it('an automatic snapshot taken before a goal-aware compaction restores the context it replaced', async () => {
    const { manager, events } = session;
    // New assistant work since the last compaction, so goal-aware has a span to summarise.
    for (let index = 0; index < 10; index += 1) {
      manager.addMessage({
        role: 'assistant',
        parts: [{ type: 'text', text: `Step ${index}: edited django/db/migrations/autodetector.py and ran the migration tests again. `.repeat(12) }],
      });
    }
    const before = manager.state();
    const outcome = await manager.compact('goal-aware');
    expect(outcome.provider.split(',')[0]).toBe('goal-aware');
    expect(manager.state()).not.toEqual(before);
    const automatic = events.of('auto-snapshot-created').at(-1)!;
    manager.restoreSnapshot(automatic.snapshotId);
    expect(manager.state()).toEqual(before);
    // And the restored context compacts again as usual.
    await expect(manager.compact('goal-aware')).resolves.toMatchObject({ trigger: 'manual' });
  });
});
