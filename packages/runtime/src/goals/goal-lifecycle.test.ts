import { describe, expect, it } from 'vitest';
import { GOAL_HISTORY_LIMIT, GoalManager } from './goal-manager.js';

/** A clock that moves one minute per reading, from a fixed start. */
function steppingClock(start = Date.UTC(2030, 0, 2, 3, 4, 5)): () => Date {
  let now = start;
  return () => {
    const at = new Date(now);
    now += 60_000;
    return at;
  };
}

describe('a goal has an id, a priority, a status and its times', () => {
  it('is set active with medium priority, an id and the time it was set', () => {
    const goals = new GoalManager(undefined, { clock: steppingClock() });
    goals.setGoal('fix the parser');
    const state = goals.state!;
    expect(state.id).toMatch(/^goal-[0-9a-f]{8}$/);
    expect(state).toMatchObject({ description: 'fix the parser', priority: 'medium', status: 'active', createdAt: '2030-01-02T03:04:05.000Z' });
    expect(goals.render().split('\n').slice(0, 3)).toEqual(['ACTIVE GOAL: fix the parser', 'Priority: medium', 'Status: active']);
  });

  it('takes a priority, at once or later, and refuses one the design does not have', () => {
    const goals = new GoalManager();
    goals.setGoal('ship the release', 'high');
    expect(goals.state!.priority).toBe('high');
    expect(goals.setPriority('low')).toBe(true);
    expect(goals.render()).toContain('Priority: low');
    expect(() => goals.setPriority('urgent' as 'high')).toThrow(/Unknown goal priority "urgent"/);
    expect(new GoalManager().setPriority('high')).toBe(false);
  });

  it('is completed with the time (/goal done): it leaves the prompt and joins the history', () => {
    const goals = new GoalManager(undefined, { clock: steppingClock() });
    goals.setGoal('fix the parser');
    goals.apply({ kind: 'checkpoint', description: 'write a test', status: 'completed' });
    const ended = goals.finish('completed')!;
    expect(ended).toMatchObject({
      description: 'fix the parser',
      status: 'completed',
      createdAt: '2030-01-02T03:04:05.000Z',
      completedAt: '2030-01-02T03:05:05.000Z',
    });
    expect(ended.checkpoints).toEqual([{ description: 'write a test', status: 'completed' }]);
    expect(goals.state).toBeUndefined();
    expect(goals.render()).toBe('');
    expect(goals.history).toEqual([ended]);
    expect(goals.finish('completed')).toBeUndefined();
  });

  it('keeps a goal that another replaced, as abandoned, in order', () => {
    const goals = new GoalManager(undefined, { clock: steppingClock() });
    goals.setGoal('first');
    goals.setGoal('second');
    goals.applyMarkers('[GOAL] third', 'user');
    goals.finish('abandoned');
    expect(goals.history.map((goal) => [goal.description, goal.status])).toEqual([
      ['first', 'abandoned'],
      ['second', 'abandoned'],
      ['third', 'abandoned'],
    ]);
    expect(new Set(goals.history.map((goal) => goal.id)).size).toBe(3);
  });

  it('round-trips through its state and history, and a goal saved before ids reads as medium and active', () => {
    const goals = new GoalManager(undefined, { clock: steppingClock() });
    goals.setGoal('old one');
    goals.setGoal('current', 'high');
    const copy = new GoalManager(goals.state, { history: goals.history });
    expect(copy.state).toEqual(goals.state);
    expect(copy.history).toEqual(goals.history);
    const legacy = new GoalManager({ description: 'from 0.1', checkpoints: [], decisions: [], artifacts: [] });
    expect(legacy.state).toMatchObject({ description: 'from 0.1', priority: 'medium', status: 'active' });
  });

  it('keeps a bounded history', () => {
    const goals = new GoalManager();
    for (let index = 0; index <= GOAL_HISTORY_LIMIT + 5; index += 1) goals.setGoal(`goal ${index}`);
    expect(goals.history).toHaveLength(GOAL_HISTORY_LIMIT);
    expect(goals.history.at(-1)!.description).toBe(`goal ${GOAL_HISTORY_LIMIT + 4}`);
  });

  it('records a file created and then edited as created', () => {
    const goals = new GoalManager();
    goals.setGoal('add the module');
    goals.apply({ kind: 'artifact', action: 'created', path: 'src/new.ts' });
    expect(goals.apply({ kind: 'artifact', action: 'modified', path: 'src/new.ts' })).toBe(false);
    expect(goals.apply({ kind: 'artifact', action: 'deleted', path: 'src/new.ts' })).toBe(true);
    expect(goals.state!.artifacts).toEqual([{ action: 'deleted', path: 'src/new.ts' }]);
  });
});
