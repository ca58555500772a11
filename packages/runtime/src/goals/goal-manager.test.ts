import { describe, expect, it } from 'vitest';
import { parseGoalMarker } from '@ollm/core';
import { GoalManager } from './goal-manager.js';

const markerExample = `Here is where we are.
[GOAL] Implement user authentication system
[CHECKPOINT] Design authentication flow - COMPLETED
[CHECKPOINT] Implement login endpoint - COMPLETED
[CHECKPOINT] Add JWT token generation - IN PROGRESS
[DECISION] Use JWT for authentication - LOCKED
[DECISION] Store tokens in httpOnly cookies - LOCKED
[DECISION] Maybe add refresh tokens
[ARTIFACT] Created src/auth/login.ts
[ARTIFACT] Created src/auth/jwt.ts
[ARTIFACT] Modified src/routes/api.ts
[NEXT] Complete JWT token generation, then move to user registration`;

describe('parseGoalMarker', () => {
  it('reads every marker kind', () => {
    expect(parseGoalMarker('[GOAL] Ship it')).toEqual({ kind: 'goal', description: 'Ship it' });
    expect(parseGoalMarker('[CHECKPOINT] Write tests - IN PROGRESS')).toEqual({ kind: 'checkpoint', description: 'Write tests', status: 'in-progress' });
    expect(parseGoalMarker('[CHECKPOINT] Write docs - PENDING')).toEqual({ kind: 'checkpoint', description: 'Write docs', status: 'pending' });
    expect(parseGoalMarker('[DECISION] Use zod - LOCKED')).toEqual({ kind: 'decision', description: 'Use zod', locked: true });
    expect(parseGoalMarker('[DECISION] Use zod')).toEqual({ kind: 'decision', description: 'Use zod', locked: false });
    expect(parseGoalMarker('[ARTIFACT] Deleted old/file.ts')).toEqual({ kind: 'artifact', action: 'deleted', path: 'old/file.ts' });
    expect(parseGoalMarker('[NEXT] Run the suite')).toEqual({ kind: 'next', description: 'Run the suite' });
  });

  it('ignores ordinary lines and malformed artifacts', () => {
    expect(parseGoalMarker('The [GOAL] is in the middle')).toBeUndefined();
    expect(parseGoalMarker('[ARTIFACT] touched something')).toBeUndefined();
  });
});

describe('GoalManager', () => {
  it('builds the goal state from assistant output and renders it', () => {
    const goals = new GoalManager();
    const updates = goals.applyAssistantOutput(markerExample);
    expect(updates).toHaveLength(11);
    const state = goals.state!;
    expect(state.description).toBe('Implement user authentication system');
    expect(state.checkpoints.map((checkpoint) => checkpoint.status)).toEqual(['completed', 'completed', 'in-progress']);
    expect(state.decisions.filter((decision) => decision.locked)).toHaveLength(2);
    expect(state.artifacts).toContainEqual({ action: 'modified', path: 'src/routes/api.ts' });
    expect(state.next).toMatch(/^Complete JWT/);
    const block = goals.render();
    expect(block).toContain('ACTIVE GOAL: Implement user authentication system');
    expect(block).toContain('Locked decisions (do not revisit):\n  - Use JWT for authentication');
    expect(block).toContain('Next: Complete JWT token generation');
  });

  it('updates a checkpoint in place and never unlocks a locked decision', () => {
    const goals = new GoalManager();
    goals.applyAssistantOutput('[GOAL] g\n[CHECKPOINT] step one - PENDING\n[DECISION] keep API - LOCKED');
    goals.applyAssistantOutput('[CHECKPOINT] Step one - COMPLETED\n[DECISION] keep API');
    expect(goals.state!.checkpoints).toEqual([{ description: 'step one', status: 'completed' }]);
    expect(goals.state!.decisions).toEqual([{ description: 'keep API', locked: true }]);
  });

  it('has no state and renders nothing without a goal, and clear() forgets it', () => {
    const goals = new GoalManager();
    expect(goals.state).toBeUndefined();
    expect(goals.render()).toBe('');
    goals.setGoal('something');
    goals.clear();
    expect(goals.state).toBeUndefined();
  });
});
